#include "GuardedMapping.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <sys/mman.h>
#include <unistd.h>

/* The live mappings, read by the signal handler: atomics only, no locks.
 * A free slot's length is 0, so that it matches no address: it is claimed
 * by setting its start, then given its length before the mapping is handed
 * out (no read of it can fault sooner), and freed length first. */
enum { SLOT_COUNT = 16 };
static struct {
    _Atomic uintptr_t start;
    _Atomic size_t length;
    atomic_bool cut_short;
} slots[SLOT_COUNT];

static struct sigaction previous_action;
static uintptr_t page_size;
static pthread_once_t install_once = PTHREAD_ONCE_INIT;
static int install_error;

static void
on_bus_error(int signal_number, siginfo_t *info, void *context)
{
    uintptr_t address = (uintptr_t) info->si_addr;
    for (int i = 0; i < SLOT_COUNT; i++) {
        uintptr_t start = atomic_load(&slots[i].start);
        size_t length = atomic_load(&slots[i].length);
        if (start == 0 || address < start || address >= start + length)
            continue;
        /* Zeros from the faulting page to the mapping's end; the access then
         * runs again and reads them. mmap is a plain system call on Linux,
         * safe here though POSIX does not list it. */
        uintptr_t page = address & ~(page_size - 1);
        void *zeros = mmap((void *) page, start + length - page, PROT_READ,
                           MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
        if (zeros != MAP_FAILED) {
            atomic_store(&slots[i].cut_short, true);
            return;
        }
    }
    /* Not a cut-short file: whoever handled SIGBUS before (the Swift
     * runtime's backtracer), or the default, which ends the process once
     * the access runs again. */
    if (previous_action.sa_flags & SA_SIGINFO) {
        previous_action.sa_sigaction(signal_number, info, context);
    } else if (previous_action.sa_handler != SIG_DFL && previous_action.sa_handler != SIG_IGN) {
        previous_action.sa_handler(signal_number);
    } else {
        signal(SIGBUS, SIG_DFL);
    }
}

static void
install_handler(void)
{
    page_size = (uintptr_t) sysconf(_SC_PAGESIZE);
    struct sigaction action = { 0 };
    action.sa_sigaction = on_bus_error;
    action.sa_flags = SA_SIGINFO | SA_ONSTACK;
    sigemptyset(&action.sa_mask);
    if (sigaction(SIGBUS, &action, &previous_action) != 0)
        install_error = errno;
}

void *
tc_guarded_mapping_map(int fd, size_t length)
{
    pthread_once(&install_once, install_handler);
    if (install_error != 0) {
        errno = install_error;
        return NULL;
    }
    void *start = mmap(NULL, length, PROT_READ, MAP_PRIVATE, fd, 0);
    if (start == MAP_FAILED)
        return NULL;
    for (int i = 0; i < SLOT_COUNT; i++) {
        uintptr_t free_slot = 0;
        if (atomic_compare_exchange_strong(&slots[i].start, &free_slot, (uintptr_t) start)) {
            atomic_store(&slots[i].cut_short, false);
            atomic_store(&slots[i].length, length);
            return start;
        }
    }
    munmap(start, length);
    errno = ENFILE;
    return NULL;
}

bool
tc_guarded_mapping_was_cut_short(const void *start)
{
    for (int i = 0; i < SLOT_COUNT; i++) {
        if (atomic_load(&slots[i].start) == (uintptr_t) start)
            return atomic_load(&slots[i].cut_short);
    }
    return false;
}

void
tc_guarded_mapping_unmap(void *start, size_t length)
{
    for (int i = 0; i < SLOT_COUNT; i++) {
        if (atomic_load(&slots[i].start) == (uintptr_t) start) {
            atomic_store(&slots[i].length, 0);
            atomic_store(&slots[i].start, 0);
            break;
        }
    }
    munmap(start, length);
}

"""Times gPodder's podcastparser on the feeds the Trackcast bench wrote.

Usage: podcastparser-bench.py RUNS FILE...
Prints JSON: for each file its size, the episodes podcastparser found and
the mean seconds per parse (after one untimed parse).
"""
import io
import json
import sys
import time

import podcastparser


def main():
    runs = int(sys.argv[1])
    results = []
    for path in sys.argv[2:]:
        with open(path, 'rb') as feed:
            data = feed.read()
        url = 'https://feeds.example.org/' + path.rsplit('/', 1)[-1]
        episodes = len(podcastparser.parse(url, io.BytesIO(data))['episodes'])
        start = time.perf_counter()
        for _ in range(runs):
            podcastparser.parse(url, io.BytesIO(data))
        seconds = (time.perf_counter() - start) / runs
        results.append({'file': path, 'bytes': len(data), 'episodes': episodes, 'seconds': seconds})
    json.dump(results, sys.stdout)


if __name__ == '__main__':
    main()

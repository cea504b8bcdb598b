/* Everything in this module is in its headers; SwiftPM needs one source file to make a C module. */

/* version.h — the program's version string (the Makefile passes the real one). */
#ifndef ROOFTOP_VERSION_H
#define ROOFTOP_VERSION_H

#ifndef ROOFTOP_VERSION
#define ROOFTOP_VERSION "dev"
#endif

#endif

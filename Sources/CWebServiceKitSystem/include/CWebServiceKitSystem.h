// The few system interfaces the Swift overlay of the C library does not import on Linux:
// epoll(7) and eventfd(2), for the HTTP/1.1 transport's event loop; and the table of the system's
// OpenSSL functions, opened at run time (CWebServiceKitOpenSSL.h). Nothing else lives here.
#ifndef CWEBSERVICEKITSYSTEM_H
#define CWEBSERVICEKITSYSTEM_H

#if defined(__linux__)
#include <sys/epoll.h>
#include <sys/eventfd.h>
#endif

#include "CWebServiceKitOpenSSL.h"

#endif

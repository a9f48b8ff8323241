// SPDX-License-Identifier: MIT
#pragma once
/// @file
/// RPGNAV_API marks what a shared rpgnav library exports: the public types and functions, and
/// nothing else (the library is compiled with hidden visibility, so internals stay private and
/// an engine cannot come to depend on them). In a static library it changes nothing.
///
/// RPGNAV_HIDDEN marks a class nested in an exported one that must stay private (a pimpl's Impl):
/// members of a class marked RPGNAV_API are exported, its nested classes' included, unless they
/// say otherwise.
///
/// On Windows a DLL build defines RPGNAV_BUILDING_SHARED (dllexport) and its users define
/// RPGNAV_SHARED (dllimport); CMake's rpgnav::rpgnav_shared target does both.

#if defined(_WIN32) || defined(__CYGWIN__)
#if defined(RPGNAV_BUILDING_SHARED)
#define RPGNAV_API __declspec(dllexport)
#elif defined(RPGNAV_SHARED)
#define RPGNAV_API __declspec(dllimport)
#else
#define RPGNAV_API
#endif
#elif defined(__GNUC__) || defined(__clang__)
#define RPGNAV_API __attribute__((visibility("default")))
#else
#define RPGNAV_API
#endif

#if (defined(__GNUC__) || defined(__clang__)) && !defined(_WIN32) && !defined(__CYGWIN__)
#define RPGNAV_HIDDEN __attribute__((visibility("hidden")))
#else
#define RPGNAV_HIDDEN
#endif

/* bcryptprimitives.dll's ProcessPrng for Wine 8 (Debian 12), which lacks it: Rust's standard library imports it
 * on Windows 10+, so without it no Rust program starts under that Wine. Installed only into the private Wine
 * prefix the tests use (target/wine-prefix), never shipped. Same contract: fill the buffer with random bytes,
 * always succeed. */
#include <windows.h>

BOOLEAN WINAPI SystemFunction036(PVOID buffer, ULONG length); /* RtlGenRandom, advapi32 */

__declspec(dllexport) BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T length) {
    while (length > 0) {
        ULONG chunk = length > 0x10000000 ? 0x10000000 : (ULONG)length;
        if (!SystemFunction036(data, chunk)) {
            return FALSE;
        }
        data += chunk;
        length -= chunk;
    }
    return TRUE;
}

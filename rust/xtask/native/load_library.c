/* Loads a GDExtension library the way Godot does on this platform and looks up its entry point, calling nothing.
 * Built for each platform by `cargo xtask platforms` and run there (natively, under Wine or under qemu):
 *     load_library PATH SYMBOL
 * prints "loaded PATH, found SYMBOL" and exits 0, or says what failed and exits 1. */
#include <stdio.h>
#ifdef _WIN32
#include <windows.h>
#else
#include <dlfcn.h>
#endif

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: load_library PATH SYMBOL\n");
        return 2;
    }
#ifdef _WIN32
    HMODULE library = LoadLibraryA(argv[1]);
    if (!library) {
        printf("LoadLibrary(%s) failed: error %lu\n", argv[1], (unsigned long)GetLastError());
        return 1;
    }
    void *symbol = (void *)GetProcAddress(library, argv[2]);
#else
    void *library = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        printf("dlopen(%s) failed: %s\n", argv[1], dlerror());
        return 1;
    }
    void *symbol = dlsym(library, argv[2]);
#endif
    if (!symbol) {
        printf("%s has no symbol %s\n", argv[1], argv[2]);
        return 1;
    }
    printf("loaded %s, found %s\n", argv[1], argv[2]);
    return 0;
}

// The object that carries the tests' shared precompiled header (tests/CMakeLists.txt); it
// holds no code of its own.

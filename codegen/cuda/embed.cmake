# Writes OUT: the text of IN as a C++ raw string named VAR, so that the CUDA
# helpers are real .cuh files (readable, checkable on their own) and the
# emitter still carries them in its binary. Run at build time by
# codegen/CMakeLists.txt: cmake -DIN=... -DOUT=... -DVAR=... -P embed.cmake
file(READ "${IN}" text)
get_filename_component(name "${IN}" NAME)
file(WRITE "${OUT}.tmp" "// Generated from codegen/cuda/${name} by codegen/cuda/embed.cmake.\n"
                        "const char *${VAR} = R\"attncc_cuh(${text})attncc_cuh\";\n")
file(RENAME "${OUT}.tmp" "${OUT}")

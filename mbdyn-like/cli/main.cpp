// mbdyn-like: command-line program (invoked like MBDyn: mbdyn-like -f deck [-o prefix]).
#include <cstdio>

int main(int argc, char** argv) {
  std::puts("mbdyn-like: skeleton");
  return 0;
}

// The model builder (reads a deck into a Model) lives in this folder.
namespace mbl {}

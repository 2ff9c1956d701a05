#pragma once
// The private data of a structural node, by MBDyn's names and numbers (strnode.cc
// StructNode::iGetPrivDataIdx): X, x, Phi, XP, xP, Omega, omega, E (E123), E313, E321 [1..3],
// PE [0..3], XPP, xPP, OmegaP, omegaP, phi [1..3]; the `index, n` form of node drives uses these
// numbers. StructNode::private_data_index/private_data implement them (struct_node.cpp).
#include <string>
#include <vector>

namespace mbl {

/// Every name, in index order (index i + 1 is names[i]).
std::vector<std::string> struct_node_private_data_names();

}  // namespace mbl

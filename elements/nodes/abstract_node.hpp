#pragma once
// Abstract node (input manual §6.1): one scalar unknown x, differential (default) or algebraic.
// The node writes no equation of its own; the elements connected to it (genels, abstract
// forces) do, at first_index(). Electric (§6.2, voltage; written to .abs as MBDyn's) and thermal
// (§6.6, temperature; .thn) nodes are the same differential scalar node under another kind.
#include "mbdyn-like/core/node.hpp"

namespace mbl::elements {

class AbstractNode final : public Node {
 public:
  AbstractNode(unsigned label, bool differential, double x0, double xp0, std::string_view kind = "abstract",
               OutputFile file = OutputFile::Abs)
      : Node(label), differential_(differential), x0_(x0), xp0_(xp0), x_(x0), xp_(xp0), kind_(kind), file_(file) {}

  std::string_view kind() const override { return kind_; }
  int dof_count() const override { return 1; }
  DofOrder dof_order(int) const override { return differential_ ? DofOrder::Differential : DofOrder::Algebraic; }
  bool differential() const { return differential_; }
  void initial_state(Vector& y, Vector& yp) const override;
  void update(const Vector& y, const Vector& yp) override;

  double x() const { return x_; }
  double xp() const { return xp_; }

  void output(OutputSink& out) const override;

  // scalarnode.cc ScalarDifferentialNode ("x", "xP") / ScalarAlgebraicNode ("x").
  unsigned private_data_count() const override { return differential_ ? 2 : 1; }
  DatumInfo private_data_info(unsigned i) const override {
    if (i == 1) return {"x", "value"};
    return i == 2 && differential_ ? DatumInfo{"xP", "derivative of the value"} : DatumInfo{};
  }
  double private_data(unsigned i) const override { return i == 1 ? x_ : i == 2 ? xp_ : 0.0; }

 private:
  bool differential_;
  double x0_, xp0_;
  double x_, xp_;
  std::string_view kind_;  ///< "abstract", "electric" or "thermal" (a literal)
  OutputFile file_;
};

}  // namespace mbl::elements

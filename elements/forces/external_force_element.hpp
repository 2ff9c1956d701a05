#pragma once
// What the external force elements share (input manual §8.8.9-8.8.13; MBDyn's ExtForce,
// base/extforce.cc): the card family, the link to the peer and MBDyn's exchange schedule at the
// step's hooks. Each element (external structural, external modal, external structural mapping)
// codes its own records: the ExternalPeer side, public for the tests of the record formats and
// the protocol's fuzz target.
#include <string>
#include <string_view>

#include "elements/forces/external_link.hpp"
#include "mbdyn-like/core/element.hpp"

namespace mbl::elements {

class ExternalForceElement : public Element, public ExternalPeer {
 public:
  ExternalForceElement(unsigned label, const ExternalCommunicator& c, std::string who)
      : Element(label), link_(c, std::move(who)) {}
  std::string_view kind() const override { return "force"; }
  /// The loads are explicit: MBDyn's ExtForce adds nothing to the Jacobian.
  void jacobian(JacobianSink&, const StepContext&) override {}
  /// Registers the link's convergence vote with the model (subclasses' setup() call it).
  void setup(Model& m) override;
  void after_predict(const StepContext& c) final;
  void after_convergence(const StepContext& c) final;

 protected:
  /// The exchanges before a residual assembly; false when no loads apply (MBDyn's initial
  /// assembly has none; `coupling, none` sends the motion and receives nothing).
  bool exchange_before_residual(const StepContext& c);
  ExternalLink link_;
  /// The state the motion is read from, during an exchange (null outside one).
  const StepContext* context_ = nullptr;
};

}  // namespace mbl::elements

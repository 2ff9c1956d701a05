#include "elements/beams/section_law.hpp"

namespace mbl::elements {

std::unique_ptr<ConstitutiveLaw6D> read_section_law(parser::CardReader& in, BuildContext&) {
  using Mat = ConstitutiveLaw6D::MatN;
  if (in.keyword_is("linear elastic generic")) {
    const Mat K = in.mat6();
    return std::make_unique<LinearSectionLaw>(K, Mat::Zero(), false);
  }
  if (in.keyword_is("linear elastic")) {
    const double E = in.real();
    return std::make_unique<LinearSectionLaw>(E * Mat::Identity(), Mat::Zero(), false);
  }
  if (in.keyword_is("linear viscoelastic generic")) {
    const Mat K = in.mat6();
    const Mat C = in.keyword_is("proportional") ? Mat(in.real() * K) : Mat(in.mat6());
    return std::make_unique<LinearSectionLaw>(K, C, true);
  }
  if (in.at_end()) in.fail_expected("a 6D constitutive law");
  in.not_implemented("6D constitutive law \"" + std::string(in.peek_text()) + "\"");
  return nullptr;
}

}  // namespace mbl::elements

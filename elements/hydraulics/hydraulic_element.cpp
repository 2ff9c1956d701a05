#include "elements/hydraulics/hydraulic_element.hpp"


namespace mbl::elements::hydraulics {

void HydraulicElement::write_hyd(OutputSink& out, std::initializer_list<double> values, int flag) const {
  if (!output_enabled()) return;
  if (std::ostream* os = out.text(OutputFile::Hyd)) {
    out.write_label(*os, label());
    for (double v : values) out.write(*os, v);
    if (flag >= 0) *os << ' ' << flag;
    *os << '\n';
  }
}

}  // namespace mbl::elements::hydraulics

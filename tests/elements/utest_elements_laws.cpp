// Constitutive laws (input manual §2.10) read from text: force, stiffness and damping against
// hand-computed values; named definitions, prestress/prestrain, wrappers, errors.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <memory>
#include <string>

#include "elements/laws/law_reader.hpp"
#include "mbdyn-like/core/card_registry.hpp"
#include "mbdyn-like/core/model.hpp"
#include "mbdyn-like/core/rotations.hpp"
#include "parser/deck/deck_reader.hpp"
#include "parser/errors.hpp"
#include "parser/math/math_parser.hpp"
#include "support/run_program.hpp"

using namespace mbl;

namespace {

struct LawDeck {
  math::MathParser math;
  parser::ReadContext read{math};
  Model model;
  BuildContext ctx{model, read};
  std::unique_ptr<parser::DeckReader> deck;

  LawDeck() { model.drive_env().math = &math; }

  /// Reads the law of dimension N from the card "x: <text>;".
  template <int N>
  std::unique_ptr<ConstitutiveLaw<N>> law(const std::string& text) {
    deck = std::make_unique<parser::DeckReader>("test.mbd", "x: " + text + ";", read);
    parser::CardReader* c = deck->next_card();
    auto l = laws::read_constitutive_law<N>(*c, ctx);
    if (l) c->expect_end();
    return l;
  }
  /// Reads definition cards (`constitutive law: ...;`).
  void define(const std::string& text) {
    deck = std::make_unique<parser::DeckReader>("test.mbd", text, read);
    while (parser::CardReader* c = deck->next_card()) {
      const CardReaderFn* f = CardRegistry::family("definition").find(c->description());
      ASSERT_NE(f, nullptr) << c->description();
      (*f)(*c, ctx, 0);
      c->expect_end();
    }
  }
};

using V1 = ConstitutiveLaw1D::VecN;

double f1(ConstitutiveLaw1D& l, double e, double ed = 0.0, double t = 0.0) {
  l.update(V1(e), V1(ed), t);
  return l.force()[0];
}

}  // namespace

TEST(Laws, LinearElasticScalar) {
  LawDeck d;
  auto l = d.law<1>("linear elastic, 1e6");
  EXPECT_DOUBLE_EQ(f1(*l, 2e-3), 2e3);
  EXPECT_DOUBLE_EQ(l->stiffness()(0, 0), 1e6);
  EXPECT_DOUBLE_EQ(l->damping()(0, 0), 0.0);
  EXPECT_FALSE(l->is_viscous());
}

TEST(Laws, LinearElasticIsotropicAndGeneric3D) {
  LawDeck d;
  auto iso = d.law<3>("linear elastic isotropic, 10.");
  iso->update(Vec3(1, 2, 3), Vec3::Zero(), 0);
  EXPECT_TRUE(iso->force().isApprox(Vec3(10, 20, 30)));
  auto gen = d.law<3>("linear elastic generic, sym, 1e9, 0., 0., 1e6, -1e5, 1e6");
  gen->update(Vec3(1e-6, 1e-3, 2e-3), Vec3::Zero(), 0);
  EXPECT_NEAR(gen->force()[0], 1e3, 1e-9);
  EXPECT_NEAR(gen->force()[1], 1e6 * 1e-3 - 1e5 * 2e-3, 1e-9);
  EXPECT_NEAR(gen->force()[2], -1e5 * 1e-3 + 1e6 * 2e-3, 1e-9);
  EXPECT_DOUBLE_EQ(gen->stiffness()(1, 2), -1e5);
}

TEST(Laws, LinearElasticGeneric6DDiag) {
  LawDeck d;
  auto l = d.law<6>("linear elastic generic, diag, 1., 2., 3., 4., 5., 6.");
  Vec6 e;
  e << 1, 1, 1, 1, 1, -1;
  l->update(e, Vec6::Zero(), 0);
  Vec6 expected;
  expected << 1, 2, 3, 4, 5, -6;
  EXPECT_TRUE(l->force().isApprox(expected));
}

TEST(Laws, ViscousAndViscoElastic) {
  LawDeck d;
  auto visc = d.law<1>("linear viscous, 3.");
  EXPECT_DOUBLE_EQ(f1(*visc, 10.0, 2.0), 6.0);
  EXPECT_TRUE(visc->is_viscous());
  EXPECT_DOUBLE_EQ(visc->damping()(0, 0), 3.0);
  auto ve = d.law<1>("linear viscoelastic, 100., 2.");
  EXPECT_DOUBLE_EQ(f1(*ve, 0.1, 0.5), 10.0 + 1.0);
  auto prop = d.law<3>("linear viscoelastic isotropic, 100., proportional, 0.01");
  prop->update(Vec3(0.1, 0, 0), Vec3(0, 2, 0), 0);
  EXPECT_TRUE(prop->force().isApprox(Vec3(10, 2, 0)));
  auto gen = d.law<3>("linear visco elastic generic, diag, 1.e3, 4.e3, 9.e3, proportional, 1.e-2");
  gen->update(Vec3(1, 1, 1), Vec3(1, 1, 1), 0);
  EXPECT_TRUE(gen->force().isApprox(Vec3(1010, 4040, 9090)));
  EXPECT_DOUBLE_EQ(gen->damping()(2, 2), 90.0);
  auto vg = d.law<6>("linear viscous generic, eye");
  EXPECT_TRUE(vg->is_viscous());
}

TEST(Laws, TimeVariantViscoElastic) {
  LawDeck d;
  auto l = d.law<6>("linear time variant viscoelastic generic, eye, linear, 1., 1., proportional, 0.5, same");
  Vec6 e = Vec6::Constant(0.1), ed = Vec6::Constant(1.0);
  l->update(e, ed, 2.0);  // scale 1 + 2 = 3: K = 3 I, C = 1.5 I
  EXPECT_NEAR(l->force()[0], 0.3 + 1.5, 1e-12);
  EXPECT_NEAR(l->stiffness()(4, 4), 3.0, 1e-12);
  EXPECT_NEAR(l->damping()(4, 4), 1.5, 1e-12);
}

TEST(Laws, CubicElastic) {
  LawDeck d;
  auto l = d.law<1>("cubic elastic generic, 10., 2., 3.");
  // f = 10 e + 2 |e| e + 3 e^3 at e = -0.5
  EXPECT_DOUBLE_EQ(f1(*l, -0.5), -5.0 - 0.5 - 0.375);
  EXPECT_DOUBLE_EQ(l->stiffness()(0, 0), 10.0 + 2.0 + 2.25);
  auto v = d.law<3>("cubic viscoelastic generic, 1., 1., 1., 0., 0., 0., 0., 0., 1., diag, 1., 2., 3.");
  v->update(Vec3(2, 2, 2), Vec3(1, 1, 1), 0);
  EXPECT_TRUE(v->force().isApprox(Vec3(2 + 1, 2 + 2, 2 + 8 + 3)));
  EXPECT_DOUBLE_EQ(v->stiffness()(2, 2), 1.0 + 12.0);
}

TEST(Laws, DoubleLinear) {
  LawDeck d;
  auto l = d.law<1>("double linear elastic, 10., 0.1, -0.2, 100.");
  EXPECT_DOUBLE_EQ(f1(*l, 0.05), 0.5);
  EXPECT_DOUBLE_EQ(f1(*l, 0.2), 1.0 + 10.0);
  EXPECT_DOUBLE_EQ(l->stiffness()(0, 0), 100.0);
  EXPECT_DOUBLE_EQ(f1(*l, -0.3), -2.0 - 10.0);
  auto t = d.law<1>("double linear elastic, 10., 0.1, -0.2, 100., third stiffness, 1000.");
  EXPECT_DOUBLE_EQ(f1(*t, -0.3), -2.0 - 100.0);
  auto v = d.law<3>("double linear viscoelastic, 10., 0.1, -0.1, 100., 1., second damping, 5.");
  v->update(Vec3(1, 1, 1), Vec3(1, 1, 1), 0);
  // components 1-2 isotropic; component 3 beyond the upper strain, with the second damping.
  EXPECT_TRUE(v->force().isApprox(Vec3(11, 11, 1 + 90 + 5)));
  EXPECT_DOUBLE_EQ(v->damping()(2, 2), 5.0);
  EXPECT_DOUBLE_EQ(v->stiffness()(1, 1), 10.0);
}

TEST(Laws, ScalarFunctionElastic) {
  LawDeck d;
  d.define("scalar function: \"sq\", pow, 2.;");
  auto l = d.law<1>("scalar function elastic, \"sq\"");
  EXPECT_DOUBLE_EQ(f1(*l, 3.0), 9.0);
  EXPECT_DOUBLE_EQ(l->stiffness()(0, 0), 6.0);
  auto o = d.law<3>("scalar function elastic orthotropic, null, null, \"sq\"");
  o->update(Vec3(1, 2, 3), Vec3::Zero(), 0);
  EXPECT_TRUE(o->force().isApprox(Vec3(0, 0, 9)));
  auto i = d.law<3>("scalar function elastic isotropic, \"sq\"");
  i->update(Vec3(1, 2, 3), Vec3::Zero(), 0);
  EXPECT_TRUE(i->force().isApprox(Vec3(1, 4, 9)));
}

TEST(Laws, PrestressAndPrestrain) {
  LawDeck d;
  auto l = d.law<1>("linear elastic, 100., prestress, 5., prestrain, const, 0.01");
  EXPECT_DOUBLE_EQ(f1(*l, 0.03), 5.0 + 100.0 * 0.02);
  auto t = d.law<3>("linear elastic isotropic, 10., prestrain, single, 1., 0., 0., linear, 0., 1.");
  t->update(Vec3(1, 0, 0), Vec3::Zero(), 0.25);  // prestrain (0.25, 0, 0)
  EXPECT_TRUE(t->force().isApprox(Vec3(7.5, 0, 0)));
}

TEST(Laws, ArrayAndDriveWrapper) {
  LawDeck d;
  auto a = d.law<1>("array, 2, linear elastic, 1000., linear viscous, 10.");
  EXPECT_DOUBLE_EQ(f1(*a, 0.01, 0.5), 10.0 + 5.0);
  EXPECT_TRUE(a->is_viscous());
  EXPECT_DOUBLE_EQ(a->stiffness()(0, 0), 1000.0);
  EXPECT_DOUBLE_EQ(a->damping()(0, 0), 10.0);
  auto w = d.law<1>("drive caller wrapper, linear, 0., 2., linear elastic, 1000.");
  EXPECT_DOUBLE_EQ(f1(*w, 0.01, 0.0, 1.5), 30.0);
  EXPECT_DOUBLE_EQ(w->stiffness()(0, 0), 3000.0);
}

TEST(Laws, BiStop) {
  LawDeck d;
  // Active from t >= 1 to t >= 3 (time drives); linear elastic bistop does not capture strain.
  auto l = d.law<1>("linear elastic bistop, 10., step, 1., 1., 0., step, 3., 1., 0.");
  EXPECT_DOUBLE_EQ(f1(*l, 0.5, 0.0, 0.5), 0.0);
  EXPECT_DOUBLE_EQ(f1(*l, 0.5, 0.0, 1.5), 5.0);
  EXPECT_DOUBLE_EQ(f1(*l, 0.5, 0.0, 3.5), 0.0);
  // The wrapper captures the strain at activation.
  auto w = d.law<1>("bistop, step, 1., 1., 0., step, 3., 1., 0., linear elastic, 10.");
  EXPECT_DOUBLE_EQ(f1(*w, 0.5, 0.0, 0.5), 0.0);
  EXPECT_DOUBLE_EQ(f1(*w, 0.5, 0.0, 1.5), 0.0);
  EXPECT_DOUBLE_EQ(f1(*w, 0.7, 0.0, 2.0), 2.0);
}

TEST(Laws, AxialWrapper) {
  LawDeck d;
  auto l = d.law<3>("axial wrapper, 0., 0., 2., linear elastic, 10.");
  l->update(Vec3(1, 2, 3), Vec3::Zero(), 0);
  EXPECT_TRUE(l->force().isApprox(Vec3(0, 0, 30)));
  EXPECT_DOUBLE_EQ(l->stiffness()(2, 2), 10.0);
  EXPECT_DOUBLE_EQ(l->stiffness()(0, 0), 0.0);
}

// The axial wrapper appends nothing of the wrapped law to its element's output (MBDyn's
// AxialCLWrapper, constltp_axw.h, has no OutputAppend), though the law is updated along n; a
// prestrained law keeps its items (MBDyn's prestrain belongs to the law itself).
TEST(Laws, AxialWrapperHidesTheWrappedLawsOutput) {
  LawDeck d;
  const std::string absorber = "shock absorber, 1e6, 1e-3, 2., 1.4, epsilon min, -0.4, penalty, 1e8, 1e4, metering, "
                               "linear, 1e-4, 1e-4, 1e-3, 900., 0.7";
  auto wrapped = d.law<3>("axial wrapper, 0., 3., 4., " + absorber);
  auto plain = d.law<1>(absorber);
  // Along n = (0, 0.6, 0.8): n.eps = -0.2, n.eps' = -0.3.
  wrapped->update(Vec3(0.7, -0.2, -0.1), Vec3(0.4, -0.18, -0.24), 0.0);
  plain->update(V1(-0.2), V1(-0.3), 0.0);
  EXPECT_NEAR(wrapped->force().norm(), std::abs(plain->force()[0]), 1e-12 * std::abs(plain->force()[0]));
  EXPECT_EQ(wrapped->output_count(), 0);
  EXPECT_EQ(wrapped->clone()->output_count(), 0);
  EXPECT_TRUE(wrapped->is_viscous() == plain->is_viscous());
  auto prestrained = d.law<1>("shock absorber, prestrain, const, -0.1, 1e6, 1e-3, 2., 1.4, epsilon min, -0.4, "
                              "penalty, 1e8, 1e4, metering, linear, 1e-4, 1e-4, 1e-3, 900., 0.7");
  ASSERT_EQ(prestrained->output_count(), 4);
  EXPECT_EQ(prestrained->output_item(0).name, "p");
}

TEST(Laws, NamedDefinitionsAndReference) {
  LawDeck d;
  d.define(
      "constitutive law: 1, name, \"scalar isotropic law\", 1, linear elastic, 1.e9;\n"
      "constitutive law: 2, 3, linear elastic isotropic, 2.;\n"
      "constitutive law: 3, 6, linear elastic isotropic, 3.;\n");
  auto l1 = d.law<1>("reference, 1");
  EXPECT_DOUBLE_EQ(f1(*l1, 1e-9), 1.0);
  auto l3 = d.law<3>("reference, 2");
  l3->update(Vec3(1, 1, 1), Vec3::Zero(), 0);
  EXPECT_TRUE(l3->force().isApprox(Vec3(2, 2, 2)));
  auto l6 = d.law<6>("reference, 3");
  l6->update(Vec6::Ones(), Vec6::Zero(), 0);
  EXPECT_DOUBLE_EQ(l6->force()[5], 3.0);
  // Label 2 is a 3D law: referencing it as 1D is an error at the label.
  EXPECT_THROW(d.law<1>("reference, 2"), parser::InputError);
  // Redefinition of the same label and dimension.
  EXPECT_THROW(d.define("constitutive law: 1, 1, linear elastic, 1.;"), parser::InputError);
}

TEST(Laws, Errors) {
  LawDeck d;
  try {
    d.law<1>("linear elastc, 1.");
    FAIL() << "no error";
  } catch (const parser::InputError& e) {
    EXPECT_NE(std::string(e.what()).find("unknown constitutive law \"linear elastc\"; did you mean \"linear elastic\"?"),
              std::string::npos)
        << e.what();
  }
  // Cubic laws do not exist in 6D.
  EXPECT_THROW(d.law<6>("cubic elastic generic, 1., 2., 3."), parser::InputError);
  // A wrong matrix size is an error at the argument.
  EXPECT_THROW(d.law<3>("linear elastic generic, 1., 2."), parser::InputError);
  // Known but not implemented laws are reported, not rejected.
  EXPECT_EQ(d.law<1>("ann elastic, \"net.ann\""), nullptr);
  EXPECT_EQ(d.read.count("not implemented"), 1u);
  // GiNaC symbolic laws are out of scope: reported like the others.
  EXPECT_EQ(d.law<1>("symbolic elastic, epsilon, \"eps\", expression, \"eps^2\""), nullptr);
  EXPECT_EQ(d.read.count("not implemented"), 2u);
}

TEST(Laws, CloneIsIndependent) {
  LawDeck d;
  auto w = d.law<1>("bistop, step, 1., 1., 0., step, 3., 1., 0., linear elastic, 10.");
  auto c = w->clone();
  f1(*w, 0.5, 0.0, 1.5);  // activates w only
  EXPECT_DOUBLE_EQ(f1(*w, 0.7, 0.0, 2.0), 2.0);
  EXPECT_DOUBLE_EQ(f1(*c, 0.7, 0.0, 2.0), 0.0);  // c activates now, capturing 0.7
}

namespace {

/// Central differences of the law's force along each strain and strain-rate component must match
/// its stiffness and damping.
template <int N>
void expect_law_derivatives(ConstitutiveLaw<N>& l, const typename ConstitutiveLaw<N>::VecN& e,
                            const typename ConstitutiveLaw<N>::VecN& ed) {
  using VecN = typename ConstitutiveLaw<N>::VecN;
  using MatN = typename ConstitutiveLaw<N>::MatN;
  l.update(e, ed, 0.0);
  const MatN K = l.stiffness(), C = l.damping();
  const double h = 1e-6;
  for (int j = 0; j < N; ++j) {
    const VecN dj = h * VecN::Unit(j);
    l.update(e + dj, ed, 0.0);
    VecN fp = l.force();
    l.update(e - dj, ed, 0.0);
    EXPECT_TRUE(((fp - l.force()) / (2 * h)).isApprox(K.col(j), 1e-6)) << "d/deps_" << j;
    l.update(e, ed + dj, 0.0);
    fp = l.force();
    l.update(e, ed - dj, 0.0);
    const VecN fd = (fp - l.force()) / (2 * h);
    EXPECT_LT((fd - C.col(j)).norm(), 1e-6 * (1.0 + C.col(j).norm())) << "d/deps'_" << j;
  }
}

/// The 3D laws of the manual's nlsf and nlp examples (eq. 2.72, 2.75) at one strain and rate:
/// K0 eps plus `beyond_K0`, and consistent derivatives.
void expect_manual_3d(ConstitutiveLaw3D& l, const Vec3& beyond_K0) {
  const Vec3 e(0.1, -0.2, 0.3), ed(0.5, 1.0, -1.0);
  Mat3 K0;
  K0 << 10, -2, -2, -2, 10, -2, -2, -2, 10;
  l.update(e, ed, 0.0);
  EXPECT_TRUE(l.force().isApprox(K0 * e + beyond_K0, 1e-12));
  expect_law_derivatives<3>(l, e, ed);
}

}  // namespace

TEST(Laws, NlsfViscoElasticManualExamples) {
  LawDeck d;
  d.define("scalar function: \"exponential\", exp, coefficient, -2., 5.;");
  // Eq. 2.71: f = 10 eps + 5 exp(-2 eps').
  auto l1 = d.law<1>("nlsf viscoelastic, 10., null, 0., \"exponential\"");
  EXPECT_NEAR(f1(*l1, 0.3, 0.2), 3.0 + 5.0 * std::exp(-0.4), 1e-12);
  EXPECT_NEAR(l1->damping()(0, 0), -10.0 * std::exp(-0.4), 1e-12);
  EXPECT_TRUE(l1->is_viscous());
  expect_law_derivatives<1>(*l1, V1(0.3), V1(0.2));
  // Eq. 2.72: the damping function acts on component 1 only.
  auto l3 = d.law<3>("nlsf viscoelastic, sym, 10., -2., -2., 10., -2., 10., null, null, null,"
                     " null, \"exponential\", null, null");
  expect_manual_3d(*l3, Vec3(5.0 * std::exp(-1.0), 0, 0));
}

TEST(Laws, NlsfVariantsAndProportional) {
  LawDeck d;
  d.define("scalar function: \"cubic\", pow, 3.;");
  auto el = d.law<1>("nlsf elastic, 2., \"cubic\"");
  EXPECT_DOUBLE_EQ(f1(*el, 0.5, 7.0), 1.0 + 0.125);
  EXPECT_FALSE(el->is_viscous());
  auto vi = d.law<1>("nlsf viscous, 2., \"cubic\"");
  EXPECT_DOUBLE_EQ(f1(*vi, 7.0, 0.5), 1.0 + 0.125);
  EXPECT_TRUE(vi->is_viscous());
  auto prop = d.law<6>("nlsf viscoelastic, diag, 1., 2., 3., 4., 5., 6., null, null, null, null, null, \"cubic\","
                       " proportional, 0.1, null, null, null, null, null, null");
  Vec6 e = Vec6::Constant(0.5), ed = Vec6::Constant(2.0);
  prop->update(e, ed, 0.0);
  EXPECT_NEAR(prop->force()[5], 6.0 * 0.5 + 0.125 + 0.6 * 2.0, 1e-12);
  expect_law_derivatives<6>(*prop, e, ed);
  // In 3D and 6D MBDyn applies the viscous functions only to laws that also have an elastic part.
  auto v3 = d.law<3>("nlsf viscous, null, \"cubic\", null, null");
  v3->update(Vec3::Zero(), Vec3(2, 0, 0), 0.0);
  EXPECT_DOUBLE_EQ(v3->force()[0], 0.0);
}

TEST(Laws, NlpViscoElasticManualExamples) {
  LawDeck d;
  d.define("scalar function: \"exponential\", exp, coefficient, -2., 5.;");
  // Eq. 2.74: f = 10 eps + 5 exp(-2 eps) eps'.
  auto l1 = d.law<1>("nlp viscoelastic, 10., null, 0., \"exponential\"");
  EXPECT_NEAR(f1(*l1, 0.3, 0.2), 3.0 + 5.0 * std::exp(-0.6) * 0.2, 1e-12);
  EXPECT_NEAR(l1->damping()(0, 0), 5.0 * std::exp(-0.6), 1e-12);
  expect_law_derivatives<1>(*l1, V1(0.3), V1(0.2));
  auto l3 = d.law<3>("nlp viscoelastic, sym, 10., -2., -2., 10., -2., 10., \"exponential\", null, null,"
                     " diag, 1., 2., 3., null, \"exponential\", null");
  // k'_1 = 5 exp(-2 eps_1) on the strain; C0 = diag(1, 2, 3) and k''_2 = 5 exp(-2 eps_2) on the rate.
  expect_manual_3d(*l3, Vec3(5.0 * std::exp(-0.2) * 0.1 + 0.5, 2.0 + 5.0 * std::exp(0.4), -3.0));
}

// ---- nonlinear laws (§2.10.3, 2.10.5-2.10.6, 2.10.9, 2.10.17, 2.10.20, 2.10.23, 2.10.42) --------

TEST(Laws, LogAndInverseSquareElastic) {
  LawDeck d;
  auto l = d.law<1>("log elastic, 1e3");
  EXPECT_DOUBLE_EQ(f1(*l, 0.2), 1e3 * std::log(1.2));
  EXPECT_DOUBLE_EQ(l->stiffness()(0, 0), 1e3 / 1.2);
  expect_law_derivatives<1>(*l, V1(-0.3), V1(0.0));
  auto q = d.law<1>("inverse square elastic, 8., 2.");
  EXPECT_DOUBLE_EQ(f1(*q, 1.0), 8.0 / 16.0);  // k / (l0 (1 + eps))^2
  expect_law_derivatives<1>(*q, V1(0.4), V1(0.0));
}

TEST(Laws, IsotropicHardeningElastic) {
  LawDeck d;
  auto l = d.law<1>("isotropic hardening elastic, 100., 0.1, linear stiffness, 20.");
  // Slope: the linear stiffness at eps = 0, the stiffness far beyond the reference strain.
  f1(*l, 0.0);
  EXPECT_DOUBLE_EQ(l->stiffness()(0, 0), 20.0);
  f1(*l, 100.0);
  EXPECT_NEAR(l->stiffness()(0, 0), 100.0, 1e-3);
  EXPECT_NEAR(f1(*l, 0.1), 100.0 * (0.2 + 3.0 * 0.01 / 0.01) / 4.0 * 0.1, 1e-12);  // alpha eps^2 = 3
  expect_law_derivatives<1>(*l, V1(-0.07), V1(0.0));
  auto l3 = d.law<3>("isotropic hardening elastic, 100., 0.1");
  expect_law_derivatives<3>(*l3, Vec3(0.03, -0.05, 0.08), Vec3::Zero());
  auto l6 = d.law<6>("isotropic hardening elastic, 100., 0.1, linear stiffness, 300.");
  expect_law_derivatives<6>(*l6, Vec6(0.01, 0.02, -0.03, 0.04, 0.0, 0.05), Vec6::Zero());
  EXPECT_THROW(d.law<1>("isotropic hardening elastic, 100., 0."), parser::InputError);
}

TEST(Laws, ContactElastic) {
  LawDeck d;
  auto l = d.law<1>("contact elastic, 50., 2.");
  EXPECT_DOUBLE_EQ(f1(*l, 0.3), 0.0);  // no force in extension
  EXPECT_DOUBLE_EQ(l->stiffness()(0, 0), 0.0);
  EXPECT_DOUBLE_EQ(f1(*l, -0.5), 50.0 * (1.0 - 4.0));
  expect_law_derivatives<1>(*l, V1(-0.2), V1(0.0));
  auto l3 = d.law<3>("contact elastic, 50., 1.5");
  l3->update(Vec3(-0.5, -0.5, -0.5), Vec3::Zero(), 0.0);  // only component 3 is in contact
  EXPECT_DOUBLE_EQ(l3->force()[0], 0.0);
  EXPECT_DOUBLE_EQ(l3->force()[2], 50.0 * (1.0 - std::pow(0.5, -1.5)));
  expect_law_derivatives<3>(*l3, Vec3(0.1, 0.2, -0.3), Vec3::Zero());
  EXPECT_THROW(d.law<1>("contact elastic, 50., 0.5"), parser::InputError);
  EXPECT_THROW(d.law<6>("contact elastic, 50., 2."), parser::InputError);  // 1D and 3D only
}

TEST(Laws, AxialTorsionCoupling) {
  LawDeck d;
  auto l = d.law<6>("linear elastic generic axial torsion coupling, diag, 1e6, 1e5, 1e5, 10., 20., 20., 500.");
  Vec6 e;
  e << 0.01, 0.0, 0.0, 0.2, 0.0, 0.0;
  l->update(e, Vec6::Zero(), 0.0);
  EXPECT_DOUBLE_EQ(l->force()[3], (10.0 + 500.0 * 0.01) * 0.2);  // GJ + c eps_1 (eq. 2.62)
  EXPECT_DOUBLE_EQ(l->force()[0], 1e6 * 0.01);
  expect_law_derivatives<6>(*l, e, Vec6::Zero());
  auto v = d.law<6>(
      "linear viscoelastic generic axial torsion coupling, diag, 1e6, 1e5, 1e5, 10., 20., 20., proportional, 0.1, 500.");
  EXPECT_TRUE(v->is_viscous());
  expect_law_derivatives<6>(*v, e, Vec6::Constant(0.3));
  EXPECT_THROW(d.law<3>("linear elastic generic axial torsion coupling, eye, 1."), parser::InputError);
}

TEST(Laws, TurbulentViscoElastic) {
  LawDeck d;
  auto p = d.law<1>("turbulent viscoelastic, 100., 3.");  // no threshold: always parabolic
  EXPECT_DOUBLE_EQ(f1(*p, 0.1, -2.0), 10.0 - 3.0 * 4.0);
  EXPECT_DOUBLE_EQ(p->damping()(0, 0), 2.0 * 3.0 * 2.0);
  expect_law_derivatives<1>(*p, V1(0.1), V1(1.5));
  // With a threshold the linear viscosity defaults to a continuous force (c_p threshold).
  auto c = d.law<1>("turbulent viscoelastic, 100., 3., 0.5, prestress, 1.");
  EXPECT_NEAR(f1(*c, 0.0, 0.5 - 1e-12), f1(*c, 0.0, 0.5 + 1e-12), 1e-9);
  EXPECT_DOUBLE_EQ(f1(*c, 0.0, 0.2), 1.0 + 1.5 * 0.2);
  auto j = d.law<1>("turbulent viscoelastic, 100., 3., 0.5, 7.");  // discontinuous
  EXPECT_DOUBLE_EQ(f1(*j, 0.0, 0.2), 7.0 * 0.2);
  EXPECT_DOUBLE_EQ(j->damping()(0, 0), 7.0);
}

TEST(Laws, InvariantAngular) {
  LawDeck d;
  const Vec3 th(0.3, -0.2, 0.5), th_dot(0.4, 0.1, -0.7);
  // xi = 0: the wrapped law as it is.
  auto w0 = d.law<3>("invariant angular, 0., linear viscoelastic generic, sym, 10., 1., 2., 20., 3., 30., proportional, 0.1");
  auto plain = d.law<3>("linear viscoelastic generic, sym, 10., 1., 2., 20., 3., 30., proportional, 0.1");
  w0->update(th, th_dot, 0.0);
  plain->update(th, th_dot, 0.0);
  EXPECT_TRUE(w0->force().isApprox(plain->force(), 1e-14));
  // An isotropic elastic law is invariant: rotating k theta about theta leaves it.
  auto iso = d.law<3>("invariant angular, 0.5, linear elastic, 10.");
  iso->update(th, Vec3::Zero(), 0.0);
  EXPECT_TRUE(iso->force().isApprox(10.0 * th, 1e-14));
  // F = R(xi theta) f, with complete derivatives (the re-oriented rate included).
  auto w = d.law<3>("invariant angular, 0.5, linear viscoelastic generic, sym, 10., 1., 2., 20., 3., 30., proportional, 0.1");
  w->update(th, th_dot, 0.0);
  const Mat3 R = rot::rotvec_to_R(0.5 * th);
  plain->update(th, R.transpose() * th_dot, 0.0);
  EXPECT_TRUE(w->force().isApprox(R * plain->force(), 1e-14));
  expect_law_derivatives<3>(*w, th, th_dot);
  EXPECT_THROW(d.law<1>("invariant angular, 0.5, linear elastic, 10."), parser::InputError);
}

TEST(Laws, ShockAbsorber) {
  LawDeck d;
  // p0 = 1e6, A0 = 1e-3, c_int = 2, gamma = 1.4; metering area 1e-4 + 1e-4 eps; fluid area 1e-3,
  // density 900, c_d 0.7.
  const std::string data = "1e6, 1e-3, 2., 1.4, epsilon min, -0.4, penalty, 1e8, 1e4, metering, linear, 1e-4, 1e-4, "
                           "1e-3, 900., 0.7";
  auto l = d.law<1>("shock absorber, " + data);
  EXPECT_DOUBLE_EQ(f1(*l, 0.0, 0.0), -1e-3 * 1e6);  // fully extended, at rest: the gas preload
  const double e = -0.2, ed = -0.3, A = 1e-4 * (1.0 + e);
  const double p = 1e6 * std::pow(1.0 + 2.0 * e, -1.4);
  const double Fv = 0.5 * 900.0 * 1e-3 * std::pow(1e-3 / (A * 0.7), 2) * ed * std::abs(ed);
  EXPECT_NEAR(f1(*l, e, ed), -1e-3 * p + Fv, 1e-9 * p);
  const std::array<double, 4> items{p, A, -1e-3 * p, Fv};
  ASSERT_EQ(l->output_count(), 4);
  for (int i = 0; i < 4; ++i) EXPECT_NEAR(l->output_value(i), items[i], 1e-12 * std::abs(items[i])) << i;
  EXPECT_EQ(l->output_item(0).name, "p");
  EXPECT_EQ(l->output_item(3).name, "Fv");
  expect_law_derivatives<1>(*l, V1(e), V1(ed));
  // Beyond the stroke: the penalty (the rate term only while moving further out).
  const double inside = f1(*l, -0.4, -0.3);
  EXPECT_NEAR(f1(*l, -0.41, -0.3) - inside, 1e8 * -0.01 - 1e4 * 0.3, 2e3);
  expect_law_derivatives<1>(*l, V1(-0.45), V1(-0.3));
  // Friction scales the gas force; a prestrain shifts the strain.
  auto fr = d.law<1>("shock absorber, prestrain, const, -0.1, " + data + ", friction, 0.5, 0.2");
  EXPECT_NEAR(f1(*fr, -0.1, 0.5), -1e-3 * 1e6 * (1.0 - 0.2 * std::tanh(1.0)) +
                                      0.5 * 900.0 * 1e-3 * std::pow(1e-3 / (1e-4 * 0.7), 2) * 0.25,
              1e-9);
  expect_law_derivatives<1>(*fr, V1(-0.2), V1(0.1));
  EXPECT_THROW(d.law<1>("shock absorber, 1e6, 1e-3, 2., 1.4, 1e-3, 900., 0.7"), parser::InputError);
}

namespace {

/// Converged steps of a law at t = 0, h, 2h, ... under the constant strain `eps` (the first at the
/// initial time, where the viscous strains do not move); returns the forces.
template <int N>
std::vector<typename ConstitutiveLaw<N>::VecN> steps_at_constant_strain(ConstitutiveLaw<N>& law,
                                                                        const typename ConstitutiveLaw<N>::VecN& eps,
                                                                        double h, int n) {
  std::vector<typename ConstitutiveLaw<N>::VecN> F;
  for (int k = 0; k <= n; ++k) {
    law.update(eps, ConstitutiveLaw<N>::VecN::Zero(), k * h);
    F.push_back(law.force());
    law.after_convergence();
  }
  return F;
}

/// dF/deps of `law` at (eps, t) against central differences of F (the state at the last
/// converged step held).
template <int N>
double stiffness_error(ConstitutiveLaw<N>& law, const typename ConstitutiveLaw<N>::VecN& eps, double t) {
  using VecN = typename ConstitutiveLaw<N>::VecN;
  law.update(eps, VecN::Zero(), t);
  const typename ConstitutiveLaw<N>::MatN K = law.stiffness();
  double err = 0.0;
  const double h = 1e-6;
  for (int j = 0; j < N; ++j) {
    VecN e = eps;
    e[j] += h;
    law.update(e, VecN::Zero(), t);
    const VecN Fp = law.force();
    e[j] -= 2 * h;
    law.update(e, VecN::Zero(), t);
    const VecN Fm = law.force();
    err = std::max(err, ((Fp - Fm) / (2 * h) - K.col(j)).cwiseAbs().maxCoeff() / (1.0 + K.cwiseAbs().maxCoeff()));
  }
  return err;
}

}  // namespace

// Zener model (§2.10.35) under a strain step held from t = 0: implicit Euler gives the relaxing
// branch E1 eps (1 + h/tau)^-k, tau = eta1/E1, which tends to the closed form E1 eps exp(-t/tau).
TEST(Laws, MaxwellOneRelaxesAsTheZenerModel) {
  LawDeck d;
  const double E0 = 2.0e5, E1 = 1.8e5, eta1 = 3.6e5, tau = eta1 / E1;
  auto law = d.law<3>("linear viscoelastic maxwell 1, E0, 2.e5, E1, 1.8e5, eta1, 3.6e5, C, eye");
  ASSERT_NE(law, nullptr);
  EXPECT_EQ(law->describe(), "linear viscoelastic maxwell 1");
  EXPECT_FALSE(law->is_viscous());
  const Vec3 eps(1e-3, -5e-4, 2e-4);
  const double h = 1e-3 * tau;
  const auto F = steps_at_constant_strain<3>(*law, eps, h, 1000);
  EXPECT_LT((F[0] - (E0 + E1) * eps).norm(), 1e-12 * F[0].norm());  // instantaneous modulus E0 + E1
  for (int k : {1, 10, 500, 1000}) {
    const Vec3 discrete = (E0 + E1 * std::pow(1.0 + h / tau, -k)) * eps;
    EXPECT_LT((F[k] - discrete).norm(), 1e-10 * discrete.norm()) << k;
    const Vec3 exact = (E0 + E1 * std::exp(-k * h / tau)) * eps;
    EXPECT_LT((F[k] - exact).norm(), 1e-3 * E1 * eps.norm()) << k;
  }
}

// Generalized Maxwell model: each branch relaxes with its own time constant; with a general C the
// stiffness is the derivative of the force at the current step's state.
TEST(Laws, MaxwellNBranchesAndStiffness) {
  LawDeck d;
  auto law = d.law<6>(
      "linear viscoelastic maxwell n, E0, 2.1e5, 2, E1, 1.89e5, eta1, 3.78e5, E1, 2.1e4, eta1, 4.2e3, C, eye");
  ASSERT_NE(law, nullptr);
  EXPECT_EQ(law->describe(), "linear viscoelastic maxwell n");
  ConstitutiveLaw6D::VecN eps;
  eps << 1e-3, -2e-3, 5e-4, 1e-4, 0.0, -3e-4;
  const double h = 0.01;
  const auto F = steps_at_constant_strain<6>(*law, eps, h, 50);
  const double expected = 2.1e5 + 1.89e5 * std::pow(1.0 + h / 2.0, -50) + 2.1e4 * std::pow(1.0 + h / 0.2, -50);
  EXPECT_LT((F[50] - expected * eps).norm(), 1e-10 * F[50].norm());

  auto general = d.law<3>("linear viscoelastic maxwell n, E0, 3., 2, E1, 2., eta1, 0.5, E1, 0.7, eta1, 4., "
                          "C, 1.2, 0.3, -0.1, 0.2, 0.9, 0.25, 0.05, -0.2, 1.1");
  ASSERT_NE(general, nullptr);
  const Vec3 e(0.1, -0.2, 0.05);
  EXPECT_LT(stiffness_error<3>(*general, e, 0.0), 1e-8);  // at the initial time: E_sum C
  steps_at_constant_strain<3>(*general, e, 0.1, 3);
  EXPECT_LT(stiffness_error<3>(*general, Vec3(0.12, -0.1, 0.0), 0.4), 1e-8);
}

TEST(Laws, MaxwellInputErrors) {
  LawDeck d;
  EXPECT_THROW(d.law<3>("linear viscoelastic maxwell 1, E0, 0., E1, 1., eta1, 1., C, eye"), parser::InputError);
  EXPECT_THROW(d.law<3>("linear viscoelastic maxwell 1, E0, 1., E1, 1., eta1, 0., C, eye"), parser::InputError);
  EXPECT_THROW(d.law<3>("linear viscoelastic maxwell n, E0, 1., 0, C, eye"), parser::InputError);
  EXPECT_THROW(d.law<3>("linear viscoelastic maxwell 1, E0, 1., E1, 1., eta1, 1., eye"), parser::InputError);
  // MBDyn has the Maxwell laws in 3D and 6D only.
  EXPECT_THROW(d.law<1>("linear viscoelastic maxwell 1, E0, 1., E1, 1., eta1, 1., C, 1."), parser::InputError);
}

// Deformable joints between clamped nodes held 0.01 apart along x from the start: the joint's
// force relaxes as the implicit Euler step of each Maxwell branch, record by record (one per
// time step h = 0.1, the first at the initial time).
TEST(Laws, MaxwellLawsInDeformableJointsRelaxUnderAHeldStrain) {
  const std::string deck = R"(
begin: data; problem: initial value; end: data;
begin: initial value; initial time: 0.; final time: 1.; time step: 0.1; tolerance: 1e-10; max iterations: 10; end: initial value;
begin: control data; structural nodes: 3; joints: 5; end: control data;
begin: nodes;
  structural: 1, static, null, eye, null, null;
  structural: 2, static, 0.01, 0., 0., eye, null, null;
  structural: 3, static, 0.01, 0., 0., eye, null, null;
end: nodes;
begin: elements;
  constitutive law: 5, 3, linear viscoelastic maxwell 1, E0, 100., E1, 50., eta1, 25., C, eye;
  joint: 1, clamp, 1, node, node;
  joint: 2, clamp, 2, node, node;
  joint: 3, clamp, 3, node, node;
  joint: 4, deformable displacement joint, 1, null, 2, null, reference, 5;
  joint: 5, deformable joint, 1, null, 3, null,
    linear viscoelastic maxwell n, E0, 100., 2, E1, 50., eta1, 25., E1, 20., eta1, 40., C, eye;
end: elements;
)";
  const auto run = test::run_deck_text("maxwell_joints", deck);
  ASSERT_EQ(run.rc, 0) << run.log();
  const auto zener = test::records(run.output("jnt"), 4), wiechert = test::records(run.output("jnt"), 5);
  ASSERT_GE(zener.size(), 11u);
  ASSERT_EQ(wiechert.size(), zener.size());
  const double eps = 0.01, h = 0.1;
  for (std::size_t k = 0; k < zener.size(); ++k) {
    const double kk = static_cast<double>(k);
    EXPECT_NEAR(zener[k][0], (100.0 + 50.0 * std::pow(1.0 + h / 0.5, -kk)) * eps, 1e-6) << k;
    EXPECT_NEAR(wiechert[k][0], (100.0 + 50.0 * std::pow(1.0 + h / 0.5, -kk) + 20.0 * std::pow(1.0 + h / 2.0, -kk)) * eps,
                1e-6)
        << k;
  }
}

// Bilinear isotropic hardening (§2.10.34) in simple shear gamma: elastic tau = G gamma up to
// sqrt(3) tau = sigma_y; beyond, sqrt(3) tau = sigma_y + E_P gamma_p / sqrt(3) with
// gamma = tau / G + gamma_p, i.e. tau = (gamma + sqrt(3) sigma_y / E_P) / (1/G + 3/E_P), in one
// step or many (a radial path). Unloading is elastic, down to the plastic strain; a volumetric
// strain only adds the pressure 3 kappa e_m.
TEST(Laws, BilinearIsotropicHardeningInShear) {
  LawDeck d;
  const double E = 2.1e5, nu = 0.3, ET = 2.0e3, sy = 235.0;
  const double G = E / (2 * (1 + nu)), EP = E * ET / (E - ET), kappa = E / (3 * (1 - 2 * nu));
  const auto tau_plastic = [&](double gamma) { return (gamma + std::sqrt(3.0) * sy / EP) / (1.0 / G + 3.0 / EP); };
  const auto shear = [](double gamma, double volumetric = 0.0) {
    ConstitutiveLaw6D::VecN e = ConstitutiveLaw6D::VecN::Zero();
    e.head<3>().setConstant(volumetric / 3.0);
    e[3] = gamma;
    return e;
  };
  const std::string text = "bilinear isotropic hardening, E, 2.1e5, nu, 0.3, ET, 2.e3, sigmayv, 235.";
  const double gamma_y = sy / (std::sqrt(3.0) * G);
  {  // elastic below yield, plastic above in one step
    auto law = d.law<6>(text);
    ASSERT_NE(law, nullptr);
    law->update(shear(0.5 * gamma_y), shear(0.0), 0.0);
    EXPECT_NEAR(law->force()[3], 0.5 * G * gamma_y, 1e-9 * G * gamma_y);
    law->update(shear(5.0 * gamma_y), shear(0.0), 0.0);
    EXPECT_NEAR(law->force()[3], tau_plastic(5.0 * gamma_y), 1e-9 * sy);
  }
  auto law = d.law<6>(text);
  double gamma = 0.0;
  for (int k = 1; k <= 10; ++k) {  // a radial path in converged steps
    gamma = 0.5 * k * gamma_y;
    law->update(shear(gamma), shear(0.0), 0.1 * k);
    const double expected = gamma <= gamma_y ? G * gamma : tau_plastic(gamma);
    EXPECT_NEAR(law->force()[3], expected, 1e-9 * sy) << k;
    law->after_convergence();
  }
  const double tau_max = tau_plastic(gamma);
  // Unloading is elastic: the stress vanishes at the plastic strain gamma - tau_max / G.
  law->update(shear(gamma - 0.5 * tau_max / G), shear(0.0), 1.1);
  EXPECT_NEAR(law->force()[3], 0.5 * tau_max, 1e-9 * sy);
  law->update(shear(gamma - tau_max / G), shear(0.0), 1.1);
  EXPECT_NEAR(law->force()[3], 0.0, 1e-9 * sy);
  law->after_convergence();
  // Reloading to the previous maximum is elastic and reaches the same stress; pressure adds.
  law->update(shear(gamma, 1e-3), shear(0.0), 1.2);
  EXPECT_NEAR(law->force()[3], tau_max, 1e-9 * sy);
  EXPECT_NEAR(law->force()[0], kappa * 1e-3, 1e-9 * kappa * 1e-3);
  // Consistent tangent, elastic and plastic states, general strains.
  ConstitutiveLaw6D::VecN e;
  e << 1e-3, -4e-4, 2e-4, 3e-3, -1e-3, 5e-4;
  EXPECT_LT(stiffness_error<6>(*law, e * 0.1, 1.3), 1e-7);
  EXPECT_LT(stiffness_error<6>(*law, e, 1.3), 1e-7);
  // Input checks: ET in [0, E), positive yield stress.
  EXPECT_THROW(d.law<6>("bilinear isotropic hardening, E, 2.1e5, nu, 0.3, ET, 2.1e5, sigmayv, 235."), parser::InputError);
  EXPECT_THROW(d.law<6>("bilinear isotropic hardening, E, 2.1e5, nu, 0.3, ET, 2.e3, sigmayv, 0."), parser::InputError);
}

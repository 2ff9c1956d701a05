// Named definitions (`drive caller:`), `reference`, `postponed`, template drive callers, node /
// element / dof drives, and reader errors with their locations.
#include <cmath>
#include <map>
#include <numbers>

#include "drive_test_util.hpp"
#include "elements/drives/template_drive.hpp"
#include "mbdyn-like/core/card_registry.hpp"

namespace mbl::drives::test {
namespace {

constexpr double pi = std::numbers::pi;

/// A fake entity with named private data.
class FakeEntity : public parser::PrivateDataOwner {
 public:
  explicit FakeEntity(std::vector<std::pair<std::string, double>> data) : data_(std::move(data)) {}
  unsigned private_data_index(std::string_view name) const override {
    for (std::size_t i = 0; i < data_.size(); ++i)
      if (data_[i].first == name) return unsigned(i + 1);
    return 0;
  }
  unsigned private_data_count() const override { return unsigned(data_.size()); }
  double private_data(unsigned i) const override { return data_.at(i - 1).second; }
  void set(const std::string& name, double v) { data_.at(private_data_index(name) - 1).second = v; }

 private:
  std::vector<std::pair<std::string, double>> data_;
};

class FakeDirectory : public parser::EntityDirectory {
 public:
  parser::PrivateDataOwner* find_entity(std::string_view kind, unsigned label) override {
    auto it = entities.find({std::string(kind), label});
    return it == entities.end() ? nullptr : it->second;
  }
  std::map<std::pair<std::string, unsigned>, FakeEntity*> entities;
};

TEST(DrivesReader, OutputFlagsOfADefinition) {
  // MBDyn's DriveCallerRead::ReadOutput: `output, <bool>` writes the value and, when the drive
  // is differentiable, its derivative; `value` and `derivative` choose each one.
  DriveDeck k;
  std::vector<DriveCallerDefinition> defs;
  k.read_cards(R"(
    drive caller: 1, linear, 0., 1., output, yes;
    drive caller: 2, linear, 0., 1., output, value, yes;
    drive caller: 3, linear, 0., 1., output, derivative, yes;
    drive caller: 4, linear, 0., 1., output, value, no, derivative, yes, output trace, no;
    drive caller: 5, string, "2*Time", output, yes;
  )", [&](parser::CardReader& c) { defs.push_back(read_drive_caller_card(c, k.env)); });
  ASSERT_EQ(defs.size(), 5u);
  EXPECT_TRUE(defs[0].output && defs[0].output_derivative);
  EXPECT_TRUE(defs[1].output && !defs[1].output_derivative);
  EXPECT_TRUE(!defs[2].output && defs[2].output_derivative);
  EXPECT_TRUE(!defs[3].output && defs[3].output_derivative);
  // MBDyn's string drive is not differentiable: its output has no derivative column.
  EXPECT_TRUE(defs[4].output && !defs[4].output_derivative);
  EXPECT_FALSE(defs[4].drive->has_derivative());
}

TEST(DrivesReader, NamedDefinitionsAndReferences) {
  DriveDeck k;
  std::vector<DriveCallerDefinition> defs;
  k.read_cards(R"(
    set: integer MY_DRIVE = 1000;
    drive caller: MY_DRIVE, name, "ramp it", ramp, 2., 0., forever, 1.;
    drive caller: 1, string, "3*Time", output, yes;
    drive caller: 2, reference, MY_DRIVE, output trace, yes, output, no;
  )", [&](parser::CardReader& c) { defs.push_back(read_drive_caller_card(c, k.env)); });
  ASSERT_EQ(defs.size(), 3u);
  EXPECT_EQ(defs[0].label, 1000u);
  EXPECT_EQ(defs[0].name, "ramp it");
  EXPECT_DOUBLE_EQ(defs[0].drive->value(2.0), 5.0);
  EXPECT_TRUE(defs[1].output);
  EXPECT_FALSE(defs[1].output_trace);
  EXPECT_EQ(defs[2].drive, defs[0].drive);  // the same object
  EXPECT_TRUE(defs[2].output_trace);
  EXPECT_FALSE(defs[2].output);
  EXPECT_EQ(drive_caller_definitions(k.ctx).size(), 3u);
  auto r = k.drive("mult, reference, 1000, reference, 1");
  k.set_time(2.0, 0.1, 20);
  EXPECT_DOUBLE_EQ(r->value(2.0), 5.0 * 6.0);
  // model::drive(label[, x]) in expressions
  install_drive_math_functions(k.ctx, k.env);
  EXPECT_DOUBLE_EQ(k.math.evaluate("model::drive(1000)", {}).to_real(), 5.0);
  EXPECT_DOUBLE_EQ(k.math.evaluate("model::drive(1000, 3.)", {}).to_real(), 7.0);
}

TEST(DrivesReader, PostponedDrive) {
  DriveDeck k;
  auto p = k.drive("postponed, 99");
  EXPECT_THROW(p->value(0.0), std::runtime_error);
  EXPECT_THROW(check_postponed_drives(k.ctx), parser::InputError);
  k.read_cards("drive caller: 99, cosine, .1, pi/.5, .5, half, 0.;",
               [&](parser::CardReader& c) { read_drive_caller_card(c, k.env); });
  EXPECT_DOUBLE_EQ(p->value(2.0), 1.0);
  EXPECT_NO_THROW(check_postponed_drives(k.ctx));
  // already defined: resolved at once
  EXPECT_DOUBLE_EQ(k.drive("postponed, 99")->value(2.0), 1.0);
}

TEST(DrivesReader, ErrorsHaveLocations) {
  DriveDeck k;
  auto e = input_error([&] { k.drive("reference, 7"); });
  EXPECT_EQ(e.message(), "drive caller 7 is not defined");
  EXPECT_EQ(e.where().column, 15);
  // GiNaC drives are MBDyn's (§2.6.18): reported not implemented at the drive, the card skipped.
  EXPECT_THROW(k.drive("ginac, \"10*log(1 + Var)\""), mbl::CardSkipped);
  ASSERT_EQ(k.ctx.count("not implemented"), 1u);
  EXPECT_EQ(k.ctx.diagnostics().back().where.column, 4);
  auto u = input_error([&] { k.drive("sinus, 0., 1., 1., forever, 0."); });
  EXPECT_NE(u.message().find("expected a drive caller"), std::string::npos);
  EXPECT_NE(u.message().find("sinus"), std::string::npos);
  auto c = input_error([&] { k.drive("sine, 0., 1., 1., 0, 0."); });
  EXPECT_NE(c.message().find("non-zero number of cycles"), std::string::npos);
  EXPECT_EQ(c.where().column, 22);
  auto p = input_error([&] { k.drive("piecewise linear, 1, 0., 0."); });
  EXPECT_NE(p.message().find("expected the number of points >= 2, found 1"), std::string::npos);
  auto s = input_error([&] { k.drive("string, \"1 + * 2\""); });
  EXPECT_EQ(s.where().line, 1);
  EXPECT_GT(s.where().column, 12);  // inside the string
  auto d = input_error([&] {
    k.read_cards("drive caller: 1, const, 1.;\ndrive caller: 1, const, 2.;",
                 [&](parser::CardReader& c) { read_drive_caller_card(c, k.env); });
  });
  EXPECT_EQ(d.where().line, 2);
  EXPECT_EQ(d.where().column, 15);
  auto extra = input_error([&] {
    k.read_cards("drive caller: 5, const, 1., 2.;",
                 [&](parser::CardReader& c) { read_drive_caller_card(c, k.env); });
  });
  EXPECT_NE(extra.message().find("expected `output`"), std::string::npos);
}

TEST(DrivesReader, NodeElementAndDofDrives) {
  DriveDeck k;
  FakeEntity node({{"X[1]", 0.5}, {"X[3]", 2.0}, {"XP[3]", -1.0}, {"Omega[2]", 4.0}});
  FakeEntity abstract({{"x", 3.0}, {"xP", 7.0}});
  FakeEntity joint({{"rz", 0.1}, {"Fx", 5.0}});
  FakeDirectory dir;
  dir.entities[{"structural", 1000}] = &node;
  dir.entities[{"abstract", 7}] = &abstract;
  dir.entities[{"joint", 3}] = &joint;
  k.ctx.set_entities(&dir);
  auto n = k.drive("node, 1000, structural, string, \"X[3]\", linear, 0., 10.");
  EXPECT_DOUBLE_EQ(n->value(0.0), 20.0);
  node.set("X[3]", 3.0);
  EXPECT_DOUBLE_EQ(n->value(0.0), 30.0);  // read at evaluation time
  auto ni = k.drive("node, 1000, structural, index, 1, string, \"2.*Var\"");
  EXPECT_DOUBLE_EQ(ni->value(0.0), 1.0);
  auto single = k.drive("node, 7, abstract, string, \"x\", direct");
  EXPECT_DOUBLE_EQ(single->value(0.0), 3.0);
  auto el = k.drive("element, 3, joint, string, \"rz\", linear, 0., -60.");
  EXPECT_DOUBLE_EQ(el->value(0.0), -6.0);
  auto dof = k.drive("dof, 1000, structural, 3, algebraic, linear, 0., 1.");
  EXPECT_DOUBLE_EQ(dof->value(0.0), 3.0);
  auto dofd = k.drive("dof, 1000, structural, 3, differential, direct");
  EXPECT_DOUBLE_EQ(dofd->value(0.0), -1.0);
  auto dofw = k.drive("dof, 1000, structural, 5, differential, direct");
  EXPECT_DOUBLE_EQ(dofw->value(0.0), 4.0);
  auto dofa = k.drive("dof, 7, abstract, differential, string, \"2.*Var\"");
  EXPECT_DOUBLE_EQ(dofa->value(0.0), 14.0);
  // function of function keeps the chain rule on the inner drive
  EXPECT_DOUBLE_EQ(n->derivative(0.0), 10.0);

  auto missing = input_error([&] { k.drive("node, 1001, structural, string, \"X[1]\", direct"); });
  EXPECT_NE(missing.message().find("structural node 1001 is not defined"), std::string::npos);
  EXPECT_EQ(missing.where().column, 10);
  auto datum = input_error([&] { k.drive("node, 1000, structural, string, \"X[9]\", direct"); });
  EXPECT_NE(datum.message().find("no private datum \"X[9]\""), std::string::npos);
  EXPECT_EQ(datum.where().column, 36);
  auto which = input_error([&] { k.drive("element, 3, joint, direct"); });
  EXPECT_NE(which.message().find("select one of the 2 private data"), std::string::npos);
  auto rot = input_error([&] { k.drive("dof, 1000, structural, 4, algebraic, direct"); });
  EXPECT_NE(rot.message().find("only be addressed as differential"), std::string::npos);
}

TEST(DrivesReader, TemplateDriveCallers) {
  DriveDeck k;
  // the cards of t.body.variable_mass_body (label 99 reused across dimensions)
  k.read_cards(R"(
    template drive caller: 99, 1, linear, 1., -.5;
    template drive caller: 99, 3, 0., 0., 1., const, 0.;
    template drive caller: 99, "3x3",
      component,
      1., inactive, inactive,
      inactive, 1., inactive,
      inactive, inactive, cosine, 0., pi/.2, -.5/2, forever, 1.;
    template drive caller: 97, "3x3",
      component, sym,
      1., inactive, inactive,
          1., inactive,
              cosine, 0., pi/.2, -.5/2, forever, 1.;
    template drive caller: 95, "3x3",
      component, diag,
      1., 1., cosine, 0., pi/.2, -.5/2, forever, 1.;
    template drive caller: 6, 6, single, 1., 2., 3., 4., 5., 6., ramp, 1., 0., forever, 0.;
    template drive caller: 66, "6x6", single, eye, const, 2.;
    template drive caller: 30, 3, array, 2, single, 1., 0., 0., time, component, inactive, const, 2., null;
  )", [&](parser::CardReader& c) { read_template_drive_caller_card(c, k.env); });
  auto s = k.ctx.find_named<TplDriveCaller<double>>("template drive caller 1", "99");
  ASSERT_TRUE(s);
  EXPECT_DOUBLE_EQ(s->value(1.0), 0.5);
  auto v = k.ctx.find_named<TplDriveCaller<Vec3>>("template drive caller 3", "99");
  EXPECT_TRUE(v->value(1.0).isZero());
  auto m = k.ctx.find_named<TplDriveCaller<Mat3>>("template drive caller 3x3", "99");
  const Mat3 m1 = m->value(0.1);  // cosine: 1 - .25 (1 - cos(pi/2)) = .75
  EXPECT_DOUBLE_EQ(m1(0, 0), 1.0);
  EXPECT_DOUBLE_EQ(m1(0, 1), 0.0);
  EXPECT_NEAR(m1(2, 2), 0.75, 1e-15);
  auto sym = k.ctx.find_named<TplDriveCaller<Mat3>>("template drive caller 3x3", "97");
  EXPECT_TRUE((sym->value(0.1) - m1).isZero(1e-15));
  auto diag = k.ctx.find_named<TplDriveCaller<Mat3>>("template drive caller 3x3", "95");
  EXPECT_TRUE((diag->value(0.1) - m1).isZero(1e-15));
  EXPECT_NEAR(diag->derivative(0.1)(2, 2), -0.25 * (pi / .2) * std::sin(pi / 2.0), 1e-12);
  auto v6 = k.ctx.find_named<TplDriveCaller<Vec6>>("template drive caller 6", "6");
  EXPECT_DOUBLE_EQ(v6->value(2.0)(5), 12.0);
  auto m6 = k.ctx.find_named<TplDriveCaller<Mat6>>("template drive caller 6x6", "66");
  EXPECT_TRUE((m6->value(0.0) - 2.0 * Mat6::Identity()).isZero());
  auto arr = k.ctx.find_named<TplDriveCaller<Vec3>>("template drive caller 3", "30");
  EXPECT_TRUE((arr->value(3.0) - Vec3(3.0, 2.0, 0.0)).isZero());

  // in a card: `reference` and the frame-aware Vec3 form
  k.open("f: reference, 30; g: single, reference, global, 0., 1., 0., const, 3.;");
  auto& c1 = k.next();
  auto r = read_tpl_drive_caller<Vec3>(c1, k.env);
  c1.expect_end();
  EXPECT_EQ(r, arr);
  parser::RigidFrame rotated;
  rotated.R_W << 0, -1, 0, 1, 0, 0, 0, 0, 1;  // 90 deg about z
  auto& c2 = k.next();
  auto g = read_tpl_drive_caller<Vec3>(c2, k.env, &rotated);
  c2.expect_end();
  EXPECT_TRUE((g->value(0.0) - Vec3(3.0, 0.0, 0.0)).isZero(1e-15));  // global y in the frame

  auto bad = input_error([&] {
    k.read_cards("template drive caller: 1, 4, const, 1.;",
                 [&](parser::CardReader& c) { read_template_drive_caller_card(c, k.env); });
  });
  EXPECT_NE(bad.message().find("template dimension"), std::string::npos);
  EXPECT_EQ(bad.where().column, 27);
}

}  // namespace
}  // namespace mbl::drives::test

namespace mbl::drives::test {
namespace {

TEST(DrivesReader, HintTexts) {
  DriveDeck k;
  // §2.6.41: "drive{cosine, 10., 2., .25, half, 0.}" and §2.6.42 "drive3{single, 1., 0., 0., ...}"
  auto d = drive_caller_from_text("cosine, 10., 2., .25, half, 1.", "hint", k.ctx, k.env);
  EXPECT_DOUBLE_EQ(d->value(20.0), 1.5);
  auto v = tpl_drive_caller_from_text<Vec3>("single, 1., 0., 0., sine, 0., 2*pi, 1., forever, 0.",
                                            "hint", k.ctx, k.env);
  EXPECT_NEAR(v->value(0.25)(0), 1.0, 1e-15);
  auto m = tpl_drive_caller_from_text<Mat3>("single, eye, const, 2.", "hint", k.ctx, k.env);
  EXPECT_TRUE((m->value(0.0) - 2.0 * Mat3::Identity()).isZero());
  auto e = input_error([&] { drive_caller_from_text("ramp, 1.", "hint of driven 3", k.ctx, k.env); });
  EXPECT_EQ(e.where().file->path, "hint of driven 3");
}

}  // namespace
}  // namespace mbl::drives::test

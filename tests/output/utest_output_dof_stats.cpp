// `print: ...` (control data, input manual §5.3.2): the listing of the unknowns MBDyn 2024 writes
// on stdout, or in <prefix>.dof with `to file`. The expected texts follow MBDyn's writers:
// dataman2.cc InitialJointAssembly ("Initial assembly dof stats", the structural nodes' 12 or 6
// initial unknowns, then the joints'), DofOwnerInit ("Regular steps dof stats", every node, then
// every element with unknowns), the nodes' and joints' DescribeDof/DescribeEq (strnode.cc,
// genj.cc ClampJoint, planej.cc PlaneHingeJoint); the flags as dataman3.cc reads them.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "support/run_program.hpp"

namespace {

/// The data and initial value blocks of every deck here: one step of 1 ms.
constexpr const char* kOneStep =
    "begin: data; problem: initial value; end: data;\n"
    "begin: initial value; initial time: 0.; final time: 1.e-3; time step: 1.e-3; end: initial value;\n";

std::string deck(const std::string& print, const std::string& extra_control = "") {
  return std::string(kOneStep) + R"(
begin: control data;
  structural nodes: 3; abstract nodes: 1; rigid bodies: 1; joints: 2; genels: 1;
  )" + print + "\n" + extra_control + R"(
end: control data;
begin: nodes;
  structural: 1, static, null, eye, null, null;
  structural: 2, dynamic, 1., 0., 0., eye, null, null;
  structural: 4, static displacement, 2., 0., 0., null;
  abstract: 3;
end: nodes;
begin: elements;
  body: 1, 2, 1., null, eye;
  genel: 5, spring support, 3, abstract, algebraic, linear elastic, 1.;
  joint: 1, clamp, 1, node, node;
  joint: 2, revolute hinge, 1, 1., 0., 0., hinge, eye, 2, null, hinge, eye;
end: elements;
)";
}

const char* kInitialDescribed = R"(Initial assembly dof stats
Structural(1): 12 1->12
        1->3: position [px,py,pz]
        4->6: orientation parameters [gx,gy,gz]
        7->9: linear velocity [vx,vy,vz]
        10->12: angular velocity [wx,wy,wz]
        1->3: position [Px,Py,Pz]
        4->6: orientation [gx,gy,gz]
        7->9: linear velocity [vx,vy,vz]
        10->12: angular velocity [wx,wy,wz]
Structural(2): 12 13->24
        13->15: position [px,py,pz]
        16->18: orientation parameters [gx,gy,gz]
        19->21: linear velocity [vx,vy,vz]
        22->24: angular velocity [wx,wy,wz]
        13->15: position [Px,Py,Pz]
        16->18: orientation [gx,gy,gz]
        19->21: linear velocity [vx,vy,vz]
        22->24: angular velocity [wx,wy,wz]
Structural(4): 6 25->30
        25->27: position [px,py,pz]
        28->30: linear velocity [vx,vy,vz]
        25->27: position [Px,Py,Pz]
        31->33: linear velocity [vx,vy,vz]
Joint(1): 12 31->42
        31->33: reaction forces [Fx,Fy,Fz]
        34->36: reaction couples [mx,my,mz]
        37->39: reaction force derivatives [FPx,FPy,FPz]
        40->42: reaction couple derivatives [mPx,mPy,mPz]
        31->33: position constraints [Px=Px0,Py=Py0,Pz=Pz0]
        34->36: orientation constraints [thetax=thetax0,thetay=thetay0,thetaz=thetaz0]
        37->39: velocity constraints [vx=0,vy=0,vz=0]
        40->42: angular velocity constraints [wx=0,wy=0,wz=0]
Joint(2): 10 43->52
        43->45: reaction forces [Fx,Fy,Fz]
        46->47: reaction couples [mx,my]
        48->50: reaction force derivatives [FPx,FPy,FPz]
        51->52: reaction couple derivatives [mPx,mPy]
        43->45: position constraints [Px1=Px2,Py1=Py2,Pz1=Pz2]
        46->47: orientation constraints [gx1=gx2,gy1=gy2]
        48->50: velocity constraints [vx1=vx2,vy1=vy2,vz1=vz2]
        51->52: angular velocity constraints [wx1=wx2,wy1=wy2]
)";

const char* kRegularDescribed = R"(Regular steps dof stats
Structural(1): 6 1->6
        1->3: position [px,py,pz]
        4->6: orientation parameters [gx,gy,gz]
        1->3: force equilibrium [Fx,Fy,Fz]
        4->6: moment equilibrium [Mx,My,Mz]
Structural(2): 12 7->18
        7->9: position [px,py,pz]
        10->12: orientation parameters [gx,gy,gz]
        13->15: momentum [Bx,By,Bz]
        16->18: momenta moment [Gx,Gy,Gz]
        7->9: momentum definition [Bx,By,Bz]
        10->12: momenta moment definition [Gx,Gy,Gz]
        13->15: force equilibrium [Fx,Fy,Fz]
        16->18: moment equilibrium [Mx,My,Mz]
Structural(4): 3 19->21
        19->21: position [px,py,pz]
        19->21: force equilibrium [Fx,Fy,Fz]
Abstract(3): 1 22
Joint(1): 6 23->28
        23->25: reaction forces [Fx,Fy,Fz]
        26->28: reaction couples [mx,my,mz]
        23->25: position constraints [Px=Px0,Py=Py0,Pz=Pz0]
        26->28: orientation constraints [thetax=thetax0,thetay=thetay0,thetaz=thetaz0]
Joint(2): 5 29->33
        29->31: reaction forces [Fx,Fy,Fz]
        32->33: reaction couples [mx,my]
        29->31: position constraints [Px1=Px2,Py1=Py2,Pz1=Pz2]
        32->33: orientation constraints [gx1=gx2,gy1=gy2]
)";

/// Runs `deck_text` with `-s` (silent output); returns the path of its .dof.
std::filesystem::path run_silent(const std::string& name, const std::string& deck_text) {
  const auto dir = mbl::test::fresh_temp_dir(name);
  std::ofstream(dir / "deck") << deck_text;
  const int rc = mbl::test::run(mbl::test::quoted(MBL_BINARY) + " -s -f " + mbl::test::quoted(dir / "deck") + " -o " +
                                    mbl::test::quoted(dir / "run"),
                                dir / "log");
  EXPECT_EQ(rc, 0) << mbl::test::read_file(dir / "log");
  return dir / "run.dof";
}

}  // namespace

TEST(OutputDofStats, DescriptionToFileAsMBDynWritesIt) {
  const auto run = mbl::test::run_deck_text("dof_described", deck("print: dof stats, description, to file;"));
  ASSERT_EQ(run.rc, 0) << run.log();
  EXPECT_EQ(mbl::test::read_file(run.output("dof")), std::string(kInitialDescribed) + kRegularDescribed);
  EXPECT_EQ(run.log().find("dof stats"), std::string::npos) << "written on stdout too";
}

TEST(OutputDofStats, StatsOnlyOnStdout) {
  const auto run = mbl::test::run_deck_text("dof_stats", deck("print: dof stats;"));
  ASSERT_EQ(run.rc, 0) << run.log();
  EXPECT_FALSE(std::filesystem::exists(run.output("dof")));
  EXPECT_NE(run.log().find("Initial assembly dof stats\nStructural(1): 12 1->12\nStructural(2): 12 13->24\n"
                           "Structural(4): 6 25->30\nJoint(1): 12 31->42\nJoint(2): 10 43->52\n"
                           "Regular steps dof stats\nStructural(1): 6 1->6\nStructural(2): 12 7->18\n"
                           "Structural(4): 3 19->21\nAbstract(3): 1 22\nJoint(1): 6 23->28\nJoint(2): 5 29->33\n"),
            std::string::npos)
      << run.log();
}

TEST(OutputDofStats, DofAndEquationDescriptionsAlone) {
  // `dof description` and `equation description` each imply `dof stats`; `none` clears what came
  // before it; no initial assembly section when it is skipped.
  const auto dofs = mbl::test::run_deck_text(
      "dof_dofs", deck("print: all, none, dof description, to file;", "skip initial joint assembly;"));
  ASSERT_EQ(dofs.rc, 0) << dofs.log();
  const std::string d = mbl::test::read_file(dofs.output("dof"));
  EXPECT_EQ(d.rfind("Regular steps dof stats\nStructural(1): 6 1->6\n        1->3: position [px,py,pz]\n"
                    "        4->6: orientation parameters [gx,gy,gz]\nStructural(2): 12 7->18\n",
                    0),
            0u)
      << d;
  EXPECT_EQ(d.find("equilibrium"), std::string::npos);
  const auto eqs = mbl::test::run_deck_text("dof_eqs", deck("print: equation description, to file;"));
  ASSERT_EQ(eqs.rc, 0) << eqs.log();
  const std::string e = mbl::test::read_file(eqs.output("dof"));
  EXPECT_NE(e.find("Joint(2): 5 29->33\n        29->31: position constraints [Px1=Px2,Py1=Py2,Pz1=Pz2]\n"), std::string::npos)
      << e;
  EXPECT_EQ(e.find("reaction forces"), std::string::npos);
}

TEST(OutputDofStats, SilentRunCreatesTheFileEmpty) {
  // MBDyn opens the .dof before testing its silent flag (DofOwnerInit): -s leaves it empty.
  const std::filesystem::path dof = run_silent("dof_silent", deck("print: description, to file;"));
  ASSERT_TRUE(std::filesystem::exists(dof));
  EXPECT_EQ(mbl::test::read_file(dof), "");
}

TEST(OutputDofStats, UnknownFlagIsAnInputError) {
  const auto run = mbl::test::run_deck_text("dof_bad", deck("print: dof stats, dof statz;"));
  EXPECT_EQ(run.rc, 2);
  EXPECT_NE(run.log().find("error: expected a print flag"), std::string::npos) << run.log();
}

TEST(OutputDofStats, TotalJointDescribesItsActiveComponents) {
  // totalj.cc TotalJoint::DescribeDof/DescribeEq: the active components by kind (P/V, theta/W);
  // in the initial assembly 2 unknowns per constraint and the derivatives of the position and
  // rotation ones, the couples' range ending at first + 2 * constraints as MBDyn numbers it.
  const auto run = mbl::test::run_deck_text("dof_total", std::string(kOneStep) + R"(
begin: control data; structural nodes: 2; rigid bodies: 1; joints: 2; print: description, to file; end: control data;
begin: nodes;
  structural: 1, static, null, eye, null, null;
  structural: 2, dynamic, 1., 0., 0., eye, null, null;
end: nodes;
begin: elements;
  body: 1, 2, 1., null, eye;
  joint: 1, clamp, 1, node, node;
  joint: 3, total joint,
    1, position, 1., 0., 0., position orientation, eye, rotation orientation, eye,
    2, position, null, position orientation, eye, rotation orientation, eye,
    position constraint, active, velocity, inactive, null,
    orientation constraint, active, inactive, active, null;
end: elements;
)");
  ASSERT_EQ(run.rc, 0) << run.log();
  const std::string d = mbl::test::read_file(run.output("dof"));
  EXPECT_NE(d.find("Joint(3): 8 37->44\n"
                   "        37->38: reaction force(s) [Fx,Fy]\n"
                   "        39->40: reaction couple(s) [mx,mz]\n"
                   "        41: reaction force(s) derivative(s) [FPx]\n"
                   "        42->44: reaction couple(s) derivative(s) [mPx,mPz]\n"
                   "        37->38: position/velocity constraint(s) [Px1=Px2,Vy1=Vy2]\n"
                   "        39->40: orientation/angular velocity constraint(s) [thetax1=thetax2,thetaz1=thetaz2]\n"
                   "        41: velocity constraint(s) [vx1=vx2]\n"
                   "        42->44: angular velocity constraint(s) [wx1=wx2,wz1=wz2]\n"
                   "Regular steps dof stats\n"),
            std::string::npos)
      << d;
  EXPECT_NE(d.find("Joint(3): 4 25->28\n"
                   "        25->26: reaction force(s) [Fx,Fy]\n"
                   "        27->28: reaction couple(s) [mx,mz]\n"
                   "        25->26: position/velocity constraint(s) [Px1=Px2,Vy1=Vy2]\n"
                   "        27->28: orientation/angular velocity constraint(s) [thetax1=thetax2,thetaz1=thetaz2]\n"),
            std::string::npos)
      << d;
}

TEST(OutputDofStats, DriveJointsAsMBDynDescribesThem) {
  // drvdisp.cc DriveDisplacementJoint, drvhinge.cc DriveHingeJoint: 3 reactions, 6 unknowns in
  // the initial assembly.
  const auto run = mbl::test::run_deck_text("dof_drive", std::string(kOneStep) + R"(
begin: control data; structural nodes: 2; rigid bodies: 1; joints: 3; print: description, to file; end: control data;
begin: nodes;
  structural: 1, static, null, eye, null, null;
  structural: 2, dynamic, 1., 0., 0., eye, null, null;
end: nodes;
begin: elements;
  body: 1, 2, 1., null, eye;
  joint: 1, clamp, 1, node, node;
  joint: 2, drive displacement, 1, 1., 0., 0., 2, null, single, 1., 0., 0., const, 0.;
  joint: 3, drive hinge, 1, hinge, eye, 2, hinge, eye, single, 0., 0., 1., const, 0.;
end: elements;
)");
  ASSERT_EQ(run.rc, 0) << run.log();
  const std::string d = mbl::test::read_file(run.output("dof"));
  EXPECT_NE(d.find("Joint(2): 6 37->42\n"
                   "        37->39: reaction forces [fx,fy,fz]\n"
                   "        40->42: reaction force derivatives [fPx,fPy,fPz]\n"
                   "        37->39: position constraints [px1=px2,py1=py2,pz1=pz2]\n"
                   "        40->42: velocity constraints [vx1=vx2,vy1=vy2,vz1=vz2]\n"
                   "Joint(3): 6 43->48\n"
                   "        43->45: reaction couples [mx,my,mz]\n"
                   "        46->48: reaction couple derivatives [mPx,mPy,mPz]\n"
                   "        43->45: orientation constraints [gx1=gx2,gy1=gy2,gz1=gz2]\n"
                   "        46->48: angular velocity constraints [wx1=wx2,wy1=wy2,wz1=wz2]\n"),
            std::string::npos)
      << d;
  EXPECT_NE(d.find("Joint(2): 3 25->27\n"
                   "        25->27: reaction forces [fx,fy,fz]\n"
                   "        25->27: position constraints [px1=px2,py1=py2,pz1=pz2]\n"
                   "Joint(3): 3 28->30\n"
                   "        28->30: reaction couples [mx,my,mz]\n"
                   "        28->30: orientation constraints [gx1=gx2,gy1=gy2,gz1=gz2]\n"),
            std::string::npos)
      << d;
}

TEST(OutputDofStats, FrictionStateFollowsTheJointsUnknowns) {
  // planej.cc PlaneHingeJoint: "friction dof(s)" after the joint's 5 unknowns (10 in the initial
  // assembly, where the state takes no part but is numbered after them), then the model's line
  // (friction.cc ModLugreFriction), indented twice.
  const auto run = mbl::test::run_deck_text("dof_friction", std::string(kOneStep) + R"(
begin: control data; structural nodes: 2; rigid bodies: 1; joints: 2; print: description, to file; end: control data;
begin: nodes;
  structural: 1, static, null, eye, null, null;
  structural: 2, dynamic, null, eye, null, null;
end: nodes;
scalar function: "mu", const, 0.3;
begin: elements;
  body: 1, 2, 1., null, eye;
  joint: 1, clamp, 1, node, node;
  joint: 2, revolute hinge, 1, null, hinge, eye, 2, null, hinge, eye,
    friction, 0.1, preload, 1., modlugre, 2000., 2.8, 0., 0.71, "mu", simple;
end: elements;
)");
  ASSERT_EQ(run.rc, 0) << run.log();
  const std::string d = mbl::test::read_file(run.output("dof"));
  EXPECT_NE(d.find("        45->46: reaction couple derivatives [mPx,mPy]\n"
                   "        47: friction dof(s)\n"
                   "                [1]: ModLugreFriction state\n"),
            std::string::npos)
      << d;
  EXPECT_NE(d.find("Joint(2): 6 25->30\n"
                   "        25->27: reaction forces [Fx,Fy,Fz]\n"
                   "        28->29: reaction couples [mx,my]\n"
                   "        30: friction dof(s)\n"
                   "                [1]: ModLugreFriction state\n"
                   "        25->27: position constraints [Px1=Px2,Py1=Py2,Pz1=Pz2]\n"
                   "        28->29: orientation constraints [gx1=gx2,gy1=gy2]\n"
                   "        30: friction equation(s)\n"
                   "                [1]: ModLugreFriction equation\n"),
            std::string::npos)
      << d;
}

TEST(OutputDofStats, UnknownsNumberedByMBDynsDofOwnerTypes) {
  // MBDyn numbers the unknowns by DofOwner::Type (dofown.h; DofDataInit, DofInit in dofman.cc):
  // structural, electric, thermal, abstract, hydraulic nodes, then joints, ..., genels, each
  // type in input order (dataman3.cc ReadNodes, dataman4.cc ReadElems); DofOwnerInit lists the
  // nodes and the elements in input order (the Nodes and Elems vectors), with those indices.
  const auto run = mbl::test::run_deck_text("dof_order", std::string(kOneStep) + R"(
begin: control data;
  structural nodes: 2; abstract nodes: 1; hydraulic nodes: 1; electric nodes: 1; joints: 2; genels: 1;
  print: dof stats, to file;
end: control data;
begin: nodes;
  hydraulic: 7, 1.e5;
  abstract: 3;
  structural: 2, static, 1., 0., 0., eye, null, null;
  electric: 9;
  structural: 1, static, null, eye, null, null;
end: nodes;
begin: elements;
  genel: 5, clamp, 3, abstract, null;
  joint: 1, clamp, 1, node, node;
  joint: 4, clamp, 2, node, node;
end: elements;
)");
  ASSERT_EQ(run.rc, 0) << run.log();
  EXPECT_EQ(mbl::test::read_file(run.output("dof")),
            "Initial assembly dof stats\n"
            "Structural(2): 12 1->12\n"
            "Structural(1): 12 13->24\n"
            "Joint(1): 12 25->36\n"
            "Joint(4): 12 37->48\n"
            "Regular steps dof stats\n"
            "Hydraulic(7): 1 15\n"
            "Abstract(3): 1 14\n"
            "Structural(2): 6 1->6\n"
            "Electric(9): 1 13\n"
            "Structural(1): 6 7->12\n"
            "GENEL(5): 1 28\n"
            "Joint(1): 6 16->21\n"
            "Joint(4): 6 22->27\n");
  // DofOwnerInit's .log lines: the first position index of each structural node, 0-based.
  const std::string log = mbl::test::read_file(run.output("log"));
  EXPECT_NE(log.find("struct node dofs: 0 6\n"), std::string::npos) << log;
}

TEST(OutputDofStats, TotalPinJointAndTotalEquationAsMBDynDescribeThem) {
  // totalj.cc TotalPinJoint::DescribeDof writes each of its four lines, numbered only when the
  // joint has such constraints ("reaction couple(s) []" alone otherwise); its equations read
  // "Px=Px0", and its initial velocity line has "->" even for one constraint. totalequation.cc
  // TotalEquation: TotalJoint's unknowns, its orientation equations named "g".
  const std::string nodes = R"(
begin: nodes;
  structural: 1, static, null, eye, null, null;
  structural: 2, dynamic, 1., 0., 0., eye, null, null;
  structural: 3, dynamic, 2., 0., 0., eye, null, null;
end: nodes;
begin: elements;
  body: 2, 2, 1., null, eye;
  body: 3, 3, 1., null, eye;
  joint: 1, clamp, 1, node, node;
)";
  const auto pin = mbl::test::run_deck_text("dof_total_pin", std::string(kOneStep) + R"(
begin: control data; structural nodes: 3; rigid bodies: 2; joints: 2; print: description, to file; end: control data;
)" + nodes + R"(
  joint: 3, total pin joint, 2, position, null, position, 1., 0., 0.,
    position constraint, active, velocity, inactive, null,
    orientation constraint, inactive, inactive, inactive, null;
end: elements;
)");
  ASSERT_EQ(pin.rc, 0) << pin.log();
  const std::string d = mbl::test::read_file(pin.output("dof"));
  EXPECT_NE(d.find("Joint(3): 4 49->52\n"
                   "        49->50: reaction force(s) [Fx,Fy]\n"
                   "reaction couple(s) []\n"
                   "        51: reaction force(s) derivative(s) [FPx]\n"
                   "reaction couple(s) derivative(s) []\n"
                   "        49->50: position/velocity constraint(s) [Px=Px0,Vy=Vy0]\n"
                   "        51->51: velocity constraint(s) [vx=vx0]\n"),
            std::string::npos)
      << d;
  EXPECT_NE(d.find("Joint(3): 2 37->38\n"
                   "        37->38: reaction force(s) [Fx,Fy]\n"
                   "reaction couple(s) []\n"
                   "        37->38: position/velocity constraint(s) [Px=Px0,Vy=Vy0]\n"),
            std::string::npos)
      << d;
  const auto equation = mbl::test::run_deck_text("dof_total_equation", std::string(kOneStep) + R"(
begin: control data; structural nodes: 3; rigid bodies: 2; joints: 3; skip initial joint assembly;
  print: description, to file; end: control data;
)" + nodes + R"(
  joint: 7, total equation, 1, 3,
    position constraint, active, inactive, inactive, null,
    orientation constraint, active, inactive, inactive, null;
  joint: 8, total internal reaction, 1, 3,
    position constraint, active, inactive, inactive,
    orientation constraint, active, inactive, inactive, total equation, 7;
end: elements;
)");
  ASSERT_EQ(equation.rc, 0) << equation.log();
  EXPECT_NE(mbl::test::read_file(equation.output("dof"))
                .find("Joint(7): 2 37->38\n"
                      "        37: reaction force(s) [Fx]\n"
                      "        38: reaction couple(s) [mx]\n"
                      "        37: position/velocity constraint(s) [Px1=Px2]\n"
                      "        38: orientation/angular velocity constraint(s) [gx1=gx2]\n"),
            std::string::npos)
      << mbl::test::read_file(equation.output("dof"));
}

TEST(OutputDofStats, BeamSliderAsMBDynDescribesIt) {
  // beamslider.cc BeamSliderJoint::DescribeDof/DescribeEq: no unknowns in the initial assembly;
  // the contact coordinate, three reactions and (classic) two moments.
  const auto run = mbl::test::run_deck_text("dof_beam_slider", std::string(kOneStep) + R"(
begin: control data; structural nodes: 4; rigid bodies: 1; joints: 4; beams: 1; print: description, to file; end: control data;
begin: nodes;
  structural: 1, static, 0., 0., 0., eye, null, null;
  structural: 2, static, 0.5, 0., 0., eye, null, null;
  structural: 3, static, 1., 0., 0., eye, null, null;
  structural: 6, dynamic, 0.2, 0., 0., eye, null, null;
end: nodes;
begin: elements;
  joint: 1, clamp, 1, node, node;
  joint: 2, clamp, 2, node, node;
  joint: 3, clamp, 3, node, node;
  beam3: 11, 1, null, 2, null, 3, null, eye, linear elastic generic, diag, 1e7, 1e7, 1e7, 1e4, 1e4, 1e4, same, same;
  joint: 6, beam slider, 6, null, type, classic, 1, 11, null, null, null, initial beam, 1, initial node, 1, smearing, 0.1;
  body: 6, 6, 2., null, diag, 1., 1., 1.;
end: elements;
)");
  ASSERT_EQ(run.rc, 0) << run.log();
  const std::string d = mbl::test::read_file(run.output("dof"));
  EXPECT_EQ(d.find("Joint(6): 0"), std::string::npos) << d;
  EXPECT_NE(d.find("Joint(6): 6 49->54\n"
                   "        49: contact local coordinate\n"
                   "        50->52: reaction forces [fx,fy,fz]\n"
                   "        53->54: reaction moments [my, mz]\n"
                   "        49: reaction force component tangent to the beam\n"
                   "        50->52: contact position along the beam\n"
                   "        53->54: orientation constraints\n"),
            std::string::npos)
      << d;
}

namespace {

/// DofOwnerInit's connection sections for deck(): an automatic structural element for the dynamic
/// node 2 first, then the elements in input order with the nodes their cards name
/// (GetConnectedNodes of Body, Genel's spring support, ClampJoint, PlaneHingeJoint); the nodes by
/// Node::Type (abstract first), the static displacement node 4, connected to nothing, left out.
const char* kConnections = R"(Element connections
Automatic Structural(2) connecting
        Structural(2)
Rigid Body(1) connecting
        Structural(2)
GENEL(5) connecting
        Abstract(3)
Joint(1) connecting
        Structural(1)
Joint(2) connecting
        Structural(1)
        Structural(2)
Node connections
Abstract(3) connected to
        GENEL(5)
Structural(1) connected to
        Joint(1)
        Joint(2)
Structural(2) connected to
        Automatic Structural(2)
        Rigid Body(1)
        Joint(2)
)";

}  // namespace

TEST(OutputDofStats, ConnectionsAfterTheRegularSection) {
  const auto run = mbl::test::run_deck_text("dof_connections", deck("print: all, to file;"));
  ASSERT_EQ(run.rc, 0) << run.log();
  EXPECT_EQ(mbl::test::read_file(run.output("dof")),
            std::string(kInitialDescribed) + kRegularDescribed + kConnections);
}

TEST(OutputDofStats, ConnectionsEvenWhenSilent) {
  // DofOwnerInit tests only the flags for the connections, not -s; `connection` is both.
  EXPECT_EQ(mbl::test::read_file(run_silent("dof_connections_silent", deck("print: connection, to file;"))),
            kConnections);
}

TEST(OutputDofStats, ElementConnectionsAlone) {
  const auto run = mbl::test::run_deck_text("dof_element_connections", deck("print: element connection;"));
  ASSERT_EQ(run.rc, 0) << run.log();
  const std::string elements_part = std::string(kConnections).substr(0, std::string(kConnections).find("Node connections"));
  EXPECT_NE(run.log().find(elements_part), std::string::npos) << run.log();
  EXPECT_EQ(run.log().find("Node connections"), std::string::npos) << run.log();
  EXPECT_EQ(run.log().find("dof stats"), std::string::npos) << run.log();
}

// Agreement with the real MBDyn: each deck of ../shared/decks listed here is run by our program
// and compared with MBDyn's outputs by our `compare` command, with the deck's tolerance from
// decks/INDEX.md (max node position error over the run / model size). CTest label: decks.
#include <gtest/gtest.h>

#include "support/run_program.hpp"

#include <filesystem>
#include <ostream>
#include <string>

namespace fs = std::filesystem;

namespace {

using mbl::test::compare_outputs;
using mbl::test::fresh_temp_dir;
using mbl::test::test_identifier;
using mbl::test::read_file;
using mbl::test::read_out_steps;
using mbl::test::run_deck;

struct DeckCase {
  const char* id;    ///< folder in ../shared/decks
  const char* main;  ///< main deck file
  double tol;        ///< decks/INDEX.md tol
  /// Also compare joint reactions, global and local (normalised by their range), when they agree.
  bool reactions = false;
  /// Node variables and normalisation of the main comparison (decks whose nodes do not move
  /// compare orientations or velocities by their range instead).
  const char* node_vars = "node.struct.*.X";
  const char* norm = "model";
  /// Reactions: smallest divisor of the range normalisation (`compare --floor`), for decks whose
  /// reactions are round-off in MBDyn's run and ours.
  double reaction_floor = 0.0;
  /// Joint-specific .jnt columns (relative rotations, velocities, ...) compared by their range
  /// (floor 1e-3) as MBDyn writes them; none when null.
  const char* joint_extra_vars = nullptr;
  /// Newton iterations per step, ours / MBDyn's (the .out NIter column), for decks whose count
  /// depends on a joint's formulation or on the nonlinear solver's convergence rules; not checked
  /// when iterations_max is 0.
  double iterations_min = 0.0, iterations_max = 0.0;
};

// Add a deck here once everything it uses is implemented and it agrees.
const DeckCase kDecks[] = {
    {"sat.rigid_body.input_file.rigidbody", "rigidbody.mbd", 1e-4},
    {"t.body.bullet", "bullet", 1e-4},
    {"t.body.centralgravity", "centralgravity", 1e-4},
    {"t.drives.string.distance", "distance", 1e-4},
    // Its initial reactions are MBDyn's round-off gap (~1e-16) divided by dCoef^2 = (dt * 1e-6)^2:
    // they agree since the gap is summed in MBDyn's order and dCoef scales with the time step.
    {"t.joints.spherical.spherical", "spherical", 1e-4, true},
    {"t.joints.drvdisp.drv", "drv", 1e-4, true},
    {"t.joints.impdisp.imp", "imp", 1e-4, true},
    // The total joint's relative rotation is the rotation vector itself (|theta| <= pi).
    {.id = "t.joints.total.total", .main = "total", .tol = 1e-4, .reactions = true,
     .joint_extra_vars = "elem.joint.*.Phi,elem.joint.*.V,elem.joint.*.Omega"},
    {"t.mechanisms.theojansen.main", "main", 1e-4, true},
    // Issue #6: rigid pendulums at a coarse step (dt = 1e-2 s) agree with MBDyn's run of the same
    // method to 1e-5 of the model size (default `ms` here, `Bathe, 0.6` in t.stiff.pendulumd).
    {"web.pendulum", "pendulum", 1e-5, true},
    // MBDyn's distance joint carries its direction as unknowns: its start-up reactions (9.81,
    // 9.81, 9.90, 9.77, ...) come from the first iteration's predicted direction.
    // Newton iterations: the distance joint's direction unknowns.
    {.id = "web.rigidpendulum", .main = "rigidpendulum", .tol = 1e-4, .reactions = true,
     .iterations_min = 1.0, .iterations_max = 1.0},
    // Rods and deformable joints (h_laws).
    {"t.scale.scale", "scale", 1e-4, true},
    {"t.drives.drivecallers.closestnext", "closestnext", 1e-4, true},
    {"t.drives.drivecallers.discretefilter", "discretefilter", 1e-4, true},
    {"t.drives.drivecallers.periodic", "periodic", 1e-4, true},
    {"t.drives.drivecallers.sampleandhold", "sampleandhold", 1e-4, true},
    // Beams (h_beams).
    {"web.cantilever1", "cantilever1", 1e-4, true},
    // Its reactions are round-off (< 1e-10) in both runs: compared in absolute terms.
    {"t.invdyn.beam2.ivcheck", "ivcheck.mbd", 1e-4, true, "node.struct.*.X", "model", 1e-3},
    // Driven elements, displacement forces, ... (h_misc).
    {"t.forces.force.force", "force", 1e-4, true},
    {"t.inertia.inertia", "inertia", 1e-4},
    {"t.body.variable_mass_body", "variable_mass_body", 1e-4},
    {"t.plugins.dof", "dof", 1e-3, true},
    // Initial assembly (h_assembly).
    // Reactions differ at 1.7e-4 in the first steps: MBDyn starts from its assembly tolerance
    // (|Phi| ~ 1e-6), we from Phi ~ 0, which our derivatives phase needs.
    {"t.joints.impdisp.imppin0", "imppin0", 1e-4},
    {"t.driven.initialassembly", "initialassembly", 1e-4, true, "node.struct.*", "range"},
    {"t.mechanisms.theojansen.main_assy", "main_assy", 1e-4, true},
    {"web.andrewssqueezer.andrewssqueezer_assembler", "andrewssqueezer_assembler", 1e-4, true},
    // Unloaded mechanism: every reaction is round-off (< 1e-8) in MBDyn's run and ours; they are
    // compared in absolute terms (floor 1e-3, i.e. to 1e-7).
    // Newton iterations: the hinges' Jacobians at the nodes' reference orientations (the same
    // count as MBDyn's on every step).
    {.id = "t.joints.gimbal.gimbal", .main = "gimbal", .tol = 1e-4, .reactions = true, .node_vars = "node.struct.*.X",
     .norm = "model", .reaction_floor = 1e-3, .iterations_min = 1.0, .iterations_max = 1.0},
    {"t.benchmarks.6barmech.6barmech", "6barmech", 1e-4},
    {"t.driven.velocitypulse", "velocitypulse", 1e-4, true, "node.struct.*.X,node.struct.*.XP"},
    // Bound parameters; no moving node positions to size the model: compared by the range.
    {"web.privdataoutput", "privdataoutput", 1e-4, false, "node.struct.*", "range"},
    // Velocities wait for initial assembly (node 2's initial velocities violate the total joint).
    {"t.joints.total.totalhint", "totalhint", 1e-4, false, "node.struct.*.X"},
    {"t.forces.force.pendulum-drag", "pendulum-drag", 1e-4, true},
    {"t.joints.rod.rodwithprestrain", "rodwithprestrain", 1e-4, true},
    // Deformable joints and rods of the eigenanalysis tests (the `eigenanalysis` card is a
    // warning): nodes and reactions agree exactly.
    {"t.eig.joints.deformabledisplacementjoint", "deformabledisplacementjoint", 1e-4, true},
    {"t.eig.joints.deformablejoint", "deformablejoint", 1e-4, true},
    {"t.eig.joints.rodwithoffset", "rodwithoffset", 1e-4, true},
    {"t.eig.joints.inplane", "inplane", 1e-4, true},
    {"t.joints.deformablehinge.deformablejointeig2", "deformablejointeig2", 1e-4, true},
    // Line search with residual and solution tolerances: converged when both tests pass, as
    // MBDyn does; positions then agree to round-off.
    // Newton iterations: the line search's both-tests rule.
    {.id = "t.stiff.pendulumd", .main = "pendulumd", .tol = 1e-6, .reactions = true,
     .iterations_min = 0.85, .iterations_max = 1.05},
    {"web.6barmech", "6barmech", 1e-4},
    // String drive statement lists as MBDyn runs them (h_fixdecks).
    {"t.joints.rod.rodprestrain", "rodprestrain", 1e-4, true},
    // `model: static;` (h_fixdecks).
    {"web.planemech", "planemech", 1e-4, true},
    {"t.beam.b", "b", 1e-4},
    // Newton iterations: the line search's options.
    {.id = "t.stiff.Swing", .main = "Swing", .tol = 1e-6, .reactions = true,
     .iterations_min = 0.9, .iterations_max = 1.05},
    {.id = "t.joints.drvhinge.drv", .main = "drv", .tol = 1e-4, .reactions = true, .joint_extra_vars = "elem.joint.*"},
    // Later cards (state space genel, screw, total equation, conservative force).
    {"web.pid", "pid", 1e-4},
    // Its total joint's relative rotation stays within pi after 10 turns.
    {.id = "t.joints.screw.screw_forced", .main = "screw_forced", .tol = 1e-4, .reactions = true,
     .joint_extra_vars = "elem.joint.*"},
    {"t.invdyn.eqreac.twomasses2", "twomasses2.mbd", 1e-4, true},
    // Beam slider (§8.12.4) on a chain of beam3 elements: positions agree to the printed digits.
    {"t.joints.slider.slider", "slider", 1e-4},
    // The Swing with a tikhonov joint regularization (§8.13): positions within 5e-5 of the model
    // size (MBDyn's run and ours regularise the same constraint rows).
    {"t.stiff.Swing_reg", "Swing_reg", 1e-4},
    {"t.beam.bb_legacy", "bb_legacy", 1e-4, true},
    // Shells (h_shell).
    {"t.plates.beam_1_5_cantilever", "beam_1_5_cantilever", 1e-4},
    {"t.plates.beam_2_5_cantilever", "beam_2_5_cantilever", 1e-4},
    {"t.plates.beam_2x4_prestress", "beam_2x4_prestress", 1e-4},
    {"t.plates.sze2004.sze31.sze31_16x1", "sze31_16x1", 1e-4},
    {"t.plates.beam_2x8_prestress", "beam_2x8_prestress", 1e-4},
    {"t.plates.shell4_x", "shell4_x", 1e-4},
    // Modal joints (issue #14): clamped, and on a modal node with an origin node and an inertia
    // element; the airframe's modal node hangs on a revolute hinge.
    {"t.joints.modal.hand-made.ssbeam_clamped", "ssbeam_clamped", 1e-4},
    {"t.joints.modal.beam.beam", "beam.mbd", 1e-4, true},
    // Newton iterations: the hinge's Jacobian at the reference orientation, and the first residual
    // of a step with the modal node's accelerations of the previous step, as MBDyn's.
    {.id = "t.joints.modal.puma.airframe", .main = "airframe.mbd", .tol = 1e-4, .node_vars = "node.struct.*",
     .norm = "range", .iterations_min = 1.0, .iterations_max = 1.0},
    // Membranes on displacement-only nodes.
    {"t.plates.membrane.check_1x1", "check_1x1", 1e-4},
    {"t.plates.membrane.prestress_4x1_d", "prestress_4x1_d", 1e-4},
    {"t.plates.membrane.prestress_4x2", "prestress_4x2", 1e-4},
    {"t.plates.membrane.prestress_10x1_eig", "prestress_10x1_eig", 1e-4},
    {"t.solid.pressure.pressureload2", "pressureload2.mbd", 1e-4},
    {"t.beam.h", "h", 1e-4},
    {"web.cantilever1piezo", "cantilever1piezo", 1e-4},
};

// gtest prints the deck id instead of the struct's bytes.
void PrintTo(const DeckCase& c, std::ostream* os) { *os << c.id; }

class DeckAgreement : public ::testing::TestWithParam<DeckCase> {};

TEST_P(DeckAgreement, NodePositionsAgreeWithMBDyn) {
  const DeckCase& c = GetParam();
  const fs::path folder = fs::path(MBL_SHARED_DIR) / "decks" / c.id;
  const fs::path deck = folder / "deck" / c.main, ref = folder / "mbdyn" / c.main;
  ASSERT_TRUE(fs::exists(deck)) << deck;
  const fs::path dir = fresh_temp_dir("deck_" + std::string(c.id));
  const fs::path out = dir / "run";
  ASSERT_EQ(run_deck(deck, out, dir / "run.log"), 0) << read_file(dir / "run.log");
  EXPECT_EQ(compare_outputs(out, ref, c.node_vars, c.norm, c.tol, dir / "compare.log"), 0)
      << read_file(dir / "compare.log");
  if (c.reactions) {
    EXPECT_EQ(compare_outputs(out, ref, "elem.joint.*.F,elem.joint.*.M,elem.joint.*.f,elem.joint.*.m", "range", c.tol,
                              dir / "compare_jnt.log", c.reaction_floor),
              0)
        << read_file(dir / "compare_jnt.log");
  }
  if (c.joint_extra_vars) {
    EXPECT_EQ(compare_outputs(out, ref, c.joint_extra_vars, "range", 1e-4, dir / "compare_extra.log", 1e-3), 0)
        << read_file(dir / "compare_extra.log");
  }
  if (c.iterations_max > 0.0) {
    const auto ours = read_out_steps(out.string() + ".out");
    const auto mbdyn = read_out_steps(ref.string() + ".out");
    ASSERT_GT(mbdyn.iterations_per_step, 0.0);
    const double ratio = ours.iterations_per_step / mbdyn.iterations_per_step;
    EXPECT_GE(ratio, c.iterations_min) << ours.iterations_per_step << " vs MBDyn " << mbdyn.iterations_per_step;
    EXPECT_LE(ratio, c.iterations_max) << ours.iterations_per_step << " vs MBDyn " << mbdyn.iterations_per_step;
  }
  if (!HasFailure()) fs::remove_all(dir);  // per-process folders: keep only failures' outputs
}

// The modal force deck names its FEM file as MBDyn's test tree holds it
// ("../../joints/modal/agard-445.6.fem"), which its folder does not carry: the run stages the deck
// with the same AGARD 445.6 wing file of the corpus at that relative place.
TEST(DeckAgreementModal, ModalForceDeckAgreesWithMBDyn) {
  const fs::path folder = fs::path(MBL_SHARED_DIR) / "decks" / "t.forces.modal.modal";
  const fs::path fem = fs::path(MBL_SHARED_DIR) / "corpus" / "t.forces.modalext.edge.edge" / "deck" / "joints" /
                       "modal" / "agard-445.6.fem";
  ASSERT_TRUE(fs::exists(fem)) << fem;
  const fs::path dir = fresh_temp_dir("deck_modal_force");
  fs::create_directories(dir / "forces" / "modal");
  fs::create_directories(dir / "joints" / "modal");
  fs::copy_file(folder / "deck" / "modal", dir / "forces" / "modal" / "modal");
  fs::copy_file(fem, dir / "joints" / "modal" / "agard-445.6.fem");
  const fs::path out = dir / "run";
  ASSERT_EQ(run_deck(dir / "forces" / "modal" / "modal", out, dir / "run.log"), 0) << read_file(dir / "run.log");
  const fs::path ref = folder / "mbdyn" / "modal";
  EXPECT_EQ(compare_outputs(out, ref, "node.struct.*", "range", 1e-4, dir / "compare.log", 1e-6), 0)
      << read_file(dir / "compare.log");
  // The force's text output: label, resultant force and moment (node frame), the drive values.
  EXPECT_EQ(read_file(out.string() + ".frc"), read_file(ref.string() + ".frc"));
  if (!HasFailure()) fs::remove_all(dir);
}

INSTANTIATE_TEST_SUITE_P(Decks, DeckAgreement, ::testing::ValuesIn(kDecks),
                         [](const ::testing::TestParamInfo<DeckCase>& i) {
                           return test_identifier(i.param.id);
                         });

}  // namespace

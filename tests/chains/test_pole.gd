extends "res://lib/test_case.gd"
## `pole` on TwoBoneIk2D, FabrikChain2D and CcdChain2D: the pole's side of the root-to-target line decides the bend
## (and overrides flip_bend), the tip still reaches the target, a pole that mirrors with the character gives the
## mirror image, and a broken pole is one clear problem that leaves the bones alone.

const CHAINS := Nodes.CHAINS
## What make_pole_case adds to the scene, in the order it is freed.
const CASE_NODES := ["ik", "target", "character"]


## A mirror-rig character with an IK node of `klass` (two-bone on bones 0-1, chains on 0-3), a reachable target and
## a pole, both given in the skeleton's frame so that they mirror with the setup. `pole_side` puts the pole on one
## side of the root-to-target line or the other (in the skeleton's frame).
func make_pole_case(klass: String, setup: String, pole_side: float, index: int, extra_scale := 1.0) -> Dictionary:
	var case := MirrorRig.make(self, setup, [0.4, -0.9, 0.8, -0.5], "Character%d" % index)
	var skeleton: Skeleton2D = case["skeleton"]
	var frame: Transform2D = skeleton.global_transform
	var tip := 1 if klass == "TwoBoneIk2D" else 3
	var goal := Vector2(60, 25) if tip == 1 else Vector2(100, 40)
	var target := make_target(frame * goal)
	# Off the line from the root (the skeleton's origin) to the goal, on `pole_side` of it, in the skeleton's frame.
	var pole := Node2D.new()
	pole.name = "Pole"
	case["character"].add_child(pole)
	pole.global_position = frame * (goal * 0.5 + goal.orthogonal().normalized() * 60.0 * pole_side * extra_scale)
	var ik: Node2D = make_ik(klass, skeleton, target, 0, tip)
	ik.pole = pole
	if klass != "TwoBoneIk2D":
		ik.max_iterations = 64
		ik.tolerance = 0.05
	case.merge({"target": target, "pole": pole, "ik": ik, "tip": tip})
	return case


## +1 / -1 / 0: the side of the root-to-target line each interior joint lies on, compared with the pole's.
func sides_match(case: Dictionary) -> Dictionary:
	var bones: Array = case["bones"]
	var root: Vector2 = bones[0].global_position
	var goal: Vector2 = case["target"].global_position
	var wanted := MirrorRig.side(root, goal, case["pole"].global_position)
	var on_side := 0
	for i in range(1, case["tip"] + 1):
		if MirrorRig.side(root, goal, bones[i].global_position) == wanted:
			on_side += 1
	return {"wanted": wanted, "on_side": on_side, "interior": case["tip"]}


func test_pole_side_decides_the_bend_under_mirroring() -> void:
	var lines := []
	var index := 0
	for klass in ["TwoBoneIk2D"] + CHAINS:
		var worst_error := 0.0
		var most_iterations := 0
		var all_on_side := 0
		var cases := 0
		for setup in MirrorRig.SETUPS:
			for pole_side in [1.0, -1.0]:
				for flip in ([false, true] if klass == "TwoBoneIk2D" else [false]):
					index += 1
					var case := make_pole_case(klass, setup, pole_side, index)
					var ik: Node2D = case["ik"]
					if klass == "TwoBoneIk2D":
						ik.flip_bend = flip
					var label := "%s %s pole side %s flip %s" % [klass, setup, pole_side, flip]
					# Several solves: warm starts must not drift away from the pole's side.
					for i in 3:
						expect(ik.solve(), "%s: solved" % label)
					var s := sides_match(case)
					expect(s["wanted"] != 0.0, "%s: the pole is off the line" % label)
					expect(s["on_side"] == s["interior"], "%s: %d of %d interior joints on the pole's side" % [label, s["on_side"], s["interior"]])
					var tolerance: float = 1e-2 if klass == "TwoBoneIk2D" else ik.tolerance
					expect(ik.last_error <= tolerance, "%s: reached (error %s)" % [label, ik.last_error])
					expect(all_finite(case["bones"]), "%s: finite" % label)
					worst_error = maxf(worst_error, ik.last_error)
					most_iterations = maxi(most_iterations, ik.last_iterations)
					all_on_side += 1 if s["on_side"] == s["interior"] else 0
					cases += 1
					free_case(case, CASE_NODES)
		lines.append("%s with a pole: %d/%d cases with every interior joint on the pole's side, worst error %.4f px, at most %d iterations" % [klass, all_on_side, cases, worst_error, most_iterations])
	print("\n".join(lines))


func test_pole_on_the_other_side_bends_the_other_way() -> void:
	# The same rig and target, the pole moved across the line: the joints cross over with it.
	for klass in ["TwoBoneIk2D"] + CHAINS:
		var a := make_pole_case(klass, "none", 1.0, 1)
		var b := make_pole_case(klass, "none", -1.0, 2)
		a["ik"].solve()
		b["ik"].solve()
		var sa := sides_match(a)
		var sb := sides_match(b)
		expect(sa["wanted"] == -sb["wanted"], "%s: the two poles are on opposite sides" % klass)
		expect(sa["on_side"] == sa["interior"] and sb["on_side"] == sb["interior"], "%s: both follow their pole (%s, %s)" % [klass, sa, sb])
		free_case(a, CASE_NODES)
		free_case(b, CASE_NODES)


func test_mirrored_pole_gives_the_mirror_image() -> void:
	for klass in ["TwoBoneIk2D"] + CHAINS:
		var a := make_pole_case(klass, "none", 1.0, 1)
		var b := make_pole_case(klass, "none", 1.0, 2)
		# Turn b around: its pole and target are children or mirrored copies, so they mirror with it.
		var axis: float = b["character"].global_position.x
		var goal: Vector2 = b["target"].global_position
		b["character"].scale = Vector2(-1, 1)
		b["target"].global_position = mirror_point(goal, axis)
		var drawn := rotations_of(a["bones"])
		expect(a["ik"].solve() and b["ik"].solve(), "%s: both solve" % klass)
		expect(largest_rotation_difference(drawn, rotations_of(a["bones"])) > 0.05, "%s: the solve turned the bones" % klass)
		var ja := joints_of(a["bones"].slice(0, a["tip"] + 1))
		var jb := joints_of(b["bones"].slice(0, b["tip"] + 1))
		var worst := largest_mirror_distance(ja, jb, axis)
		expect(worst < 1e-2, "%s: the mirrored character with its mirrored pole is the mirror image (worst %s px)" % [klass, worst])
		print("%s pole mirror image: worst joint difference %.6f px" % [klass, worst])
		free_case(a, CASE_NODES)
		free_case(b, CASE_NODES)


func test_pole_beyond_reach_and_on_the_line() -> void:
	for klass in ["TwoBoneIk2D"] + CHAINS:
		# Far away on one side: still decides the side.
		var far := make_pole_case(klass, "skeleton_x", 1.0, 1, 40.0)
		far["ik"].solve()
		var s := sides_match(far)
		expect(s["on_side"] == s["interior"], "%s: a far pole still decides the side (%s)" % [klass, s])
		expect(far["ik"].last_error <= (1e-2 if klass == "TwoBoneIk2D" else far["ik"].tolerance), "%s: far pole, reached (%s)" % [klass, far["ik"].last_error])
		free_case(far, CASE_NODES)
		# On the root-to-target line: decides nothing, the solve still reaches and stays finite.
		var on_line := make_pole_case(klass, "none", 0.0, 2)
		expect(on_line["ik"].solve(), "%s: pole on the line: solved" % klass)
		expect(all_finite(on_line["bones"]), "%s: pole on the line: finite" % klass)
		expect(on_line["ik"].last_error <= (1e-2 if klass == "TwoBoneIk2D" else on_line["ik"].tolerance), "%s: pole on the line: reached (%s)" % [klass, on_line["ik"].last_error])
		free_case(on_line, CASE_NODES)


func test_broken_pole_is_one_clear_problem() -> void:
	for klass in ["TwoBoneIk2D"] + CHAINS:
		for breakage in ["freed", "outside the tree", "NaN position"]:
			var case := make_pole_case(klass, "none", 1.0, 1)
			var ik: Node2D = case["ik"]
			var pole: Node2D = case["pole"]
			expect(ik.solve(), "%s: solves with a good pole" % klass)
			var before := rotations_of(case["bones"])
			case["target"].global_position += Vector2(3, -4)
			match breakage:
				"freed": pole.free()
				"outside the tree": case["character"].remove_child(pole)
				"NaN position": pole.position = Vector2(NAN, 0)
			var label := "%s pole %s" % [klass, breakage]
			expect(not ik.solve(), "%s: solve() refuses" % label)
			expect(rotations_of(case["bones"]) == before, "%s: the bones keep their pose" % label)
			var warning: String = ik.get_setup_warning()
			expect("pole" in warning, "%s: the warning names the pole: %s" % [label, warning])
			# Clearing the pole solves again.
			ik.pole = null
			expect(ik.solve(), "%s: solves again once the pole is cleared" % label)
			expect(ik.get_setup_warning() == "", "%s: no warning once cleared" % label)
			if breakage == "outside the tree":
				pole.free()
			free_case(case, CASE_NODES)


func test_pole_with_angle_limits_keeps_the_limits() -> void:
	# The pre-bent start may lie outside the limits; the chains' solve still ends inside them, at the target.
	for klass in ["TwoBoneIk2D"] + CHAINS:
		for setup in ["none", "skeleton_x", "bone_x"]:
			for pole_side in [1.0, -1.0]:
				var case := make_pole_case(klass, setup, pole_side, 1)
				var ik: Node2D = case["ik"]
				var bones: Array = case["bones"]
				for i in case["tip"] + 1:
					ik.set_angle_limits(i, -1.3, 1.3)
				for i in 3:
					ik.solve()
				var label := "%s %s pole side %s with limits" % [klass, setup, pole_side]
				for i in case["tip"] + 1:
					var r: float = wrapf(bones[i].rotation, -PI, PI)
					expect(r >= -1.3 - 1e-4 and r <= 1.3 + 1e-4, "%s: bone %d rotation %s within [-1.3, 1.3]" % [label, i, r])
				# The chains search inside the limits; TwoBoneIk2D's closed form only clamps its written rotations.
				if klass != "TwoBoneIk2D":
					expect(ik.last_error <= ik.tolerance, "%s: reached (error %s)" % [label, ik.last_error])
				free_case(case, CASE_NODES)

extends "res://lib/test_case.gd"
## FabrikRig2D over a real two-armed Skeleton2D (a spine of three bones, the chest carrying both shoulders at
## different points, two two-bone arms, bone angles != 0): reach, exact lengths, limits, the mirrored rig, the stable
## compromise out of reach, the comparison with two stacked FabrikChain2D on the shared spine, and bad input.


## The bones of a two-armed creature (Characters.two_armed: spine_0, spine_1, chest, left_0, left_1, right_0,
## right_1) on a skeleton at `at` with `skeleton_scale`.
func make_creature(skeleton_scale := Vector2.ONE, at := Vector2(400, 300)) -> Array:
	return Characters.two_armed(self, at, skeleton_scale)["bones"]


## The FabrikRig2D these tests solve (Characters.fabrik_rig, manual mode) with max_iterations 64.
func make_fabrik_rig(bones: Array, targets: Array) -> Node2D:
	var rig := Characters.fabrik_rig(self, bones, targets)
	rig.name = "FabrikRig2D"
	rig.max_iterations = 64
	return rig


## Ends of both arms after each bone is turned by `turns` (then turned back): a pose the rig can reach.
func reachable_ends(bones: Array, turns: Array) -> Array:
	var before := rotations_of(bones)
	for i in bones.size():
		bones[i].rotation += turns[i]
	var ends := [bone_end(bones[4]), bone_end(bones[6])]
	for i in bones.size():
		bones[i].rotation = before[i]
	return ends


## Each bone's offset to every child bone and to its end: what rotation-only writes must keep.
func shape_of(bones: Array) -> PackedFloat32Array:
	var out := PackedFloat32Array()
	for b in bones:
		out.append(b.global_position.distance_to(bone_end(b)))
		for c in b.get_children():
			if c is Bone2D:
				out.append(b.global_position.distance_to(c.global_position))
	return out


func test_reaches_every_reachable_target_keeping_lengths() -> void:
	var bones := make_creature()
	var shape := shape_of(bones)
	var rng := RandomNumberGenerator.new()
	rng.seed = 24
	var ta := make_target(Vector2.ZERO)
	var tb := make_target(Vector2.ZERO)
	var rig := make_fabrik_rig(bones, [ta, tb])
	var worst := 0.0
	var reached := 0
	var cases := 40
	var start := rotations_of(bones)
	for c in cases:
		for i in bones.size():
			bones[i].rotation = start[i]
		var turns := []
		for i in bones.size():
			turns.append(rng.randf_range(-0.6, 0.6))
		var ends := reachable_ends(bones, turns)
		ta.global_position = ends[0]
		tb.global_position = ends[1]
		expect(rig.solve(), "case %d: solved" % c)
		var error := maxf(bone_end(bones[4]).distance_to(ends[0]), bone_end(bones[6]).distance_to(ends[1]))
		expect_near(rig.last_error, error, 1e-3, "case %d: last_error is the worst tip's distance" % c)
		worst = maxf(worst, error)
		if error <= rig.tolerance + 1e-3:
			reached += 1
		expect(all_finite(bones), "case %d: finite" % c)
		var now := shape_of(bones)
		for k in shape.size():
			expect_near(now[k], shape[k], 1e-3, "case %d: length %d kept" % [c, k])
	print("FabrikRig2D reachable: %d/%d cases with both tips within %.2f px; worst tip error %.4f px" % [reached, cases, rig.tolerance, worst])
	expect(reached == cases, "every case reached (%d/%d, worst %.4f px)" % [reached, cases, worst])


func test_limits_hold() -> void:
	var bones := make_creature()
	var ta := make_target(Vector2.ZERO)
	var tb := make_target(Vector2.ZERO)
	var rig := make_fabrik_rig(bones, [ta, tb])
	var limits := {0: Vector2(-1.8, -1.3), 1: Vector2(-0.2, 0.3), 2: Vector2(-0.25, 0.25), 4: Vector2(-1.2, 0.0), 6: Vector2(0.0, 1.2)}
	for i in limits:
		rig.set_angle_limits(i, limits[i].x, limits[i].y)
	var rng := RandomNumberGenerator.new()
	rng.seed = 7
	var worst := 0.0
	for c in 60:
		ta.global_position = Vector2(400, 300) + Vector2(rng.randf_range(-150, 150), rng.randf_range(-200, 60))
		tb.global_position = Vector2(400, 300) + Vector2(rng.randf_range(-150, 150), rng.randf_range(-200, 60))
		rig.solve()
		for i in limits:
			var r: float = wrapf(bones[i].rotation, -PI, PI)
			var outside := maxf(limits[i].x - r, r - limits[i].y)
			worst = maxf(worst, outside)
	print("FabrikRig2D limits: worst excess %.6f rad over 60 random target pairs" % maxf(worst, 0.0))
	expect(worst <= 1e-4, "limits hold (worst excess %s rad)" % worst)


func test_mirrored_rig_gives_the_mirror_image() -> void:
	var plain := make_creature(Vector2.ONE, Vector2(300, 300))
	var flipped := make_creature(Vector2(-1, 1), Vector2(700, 300))
	var pa := make_target(Vector2.ZERO)
	var pb := make_target(Vector2.ZERO)
	var fa := make_target(Vector2.ZERO)
	var fb := make_target(Vector2.ZERO)
	var rig_plain := make_fabrik_rig(plain, [pa, pb])
	var rig_flipped := make_fabrik_rig(flipped, [fa, fb])
	rig_plain.set_angle_limits(1, -0.3, 0.3)
	rig_flipped.set_angle_limits(1, -0.3, 0.3)
	var worst := 0.0
	for frame in 120:
		var t := frame / 20.0
		var a := Vector2(-60 + 30 * cos(t), -110 + 40 * sin(1.3 * t))
		var b := Vector2(70 + 50 * sin(t), -90 + 30 * cos(0.7 * t))
		pa.global_position = Vector2(300, 300) + a
		pb.global_position = Vector2(300, 300) + b
		fa.global_position = Vector2(700, 300) + Vector2(-a.x, a.y)
		fb.global_position = Vector2(700, 300) + Vector2(-b.x, b.y)
		rig_plain.solve()
		rig_flipped.solve()
		for i in plain.size():
			var p: Vector2 = plain[i].global_position - Vector2(300, 300)
			var q: Vector2 = flipped[i].global_position - Vector2(700, 300)
			worst = maxf(worst, Vector2(-p.x, p.y).distance_to(q))
		for i in [4, 6]:
			var p := bone_end(plain[i]) - Vector2(300, 300)
			var q := bone_end(flipped[i]) - Vector2(700, 300)
			worst = maxf(worst, Vector2(-p.x, p.y).distance_to(q))
	print("FabrikRig2D mirror: worst difference %.5f px over 120 frames (root scale.x = -1, bone angles != 0)" % worst)
	expect(worst <= 0.02, "mirrored rig is the mirror image (worst %s px)" % worst)


## Two FabrikChain2D on the same spine, left arm then right arm, as a user would stack them today (Characters.
## stacked_chains), with max_iterations 64.
func make_stacked(bones: Array, ta: Node2D, tb: Node2D) -> Array:
	var chains := Characters.stacked_chains(self, bones, [ta, tb])
	for chain in chains:
		chain.max_iterations = 64
	return chains


func test_against_stacked_chains() -> void:
	var rb := make_creature(Vector2.ONE, Vector2(300, 300))
	var sb := make_creature(Vector2.ONE, Vector2(300, 300))
	var ta := make_target(Vector2.ZERO)
	var tb := make_target(Vector2.ZERO)
	var rig := make_fabrik_rig(rb, [ta, tb])
	var chains := make_stacked(sb, ta, tb)
	# Reachable together only with the spine bent for both.
	var ends := reachable_ends(rb, [0.9, 0.6, 0.3, -0.6, 0.4, 0.5, -0.3])
	ta.global_position = ends[0]
	tb.global_position = ends[1]
	var rig_errors := []
	var stacked_errors := []
	var stacked_motion := []
	for frame in 10:
		rig.solve()
		var before: Vector2 = sb[2].global_position
		chains[0].solve()
		chains[1].solve()
		rig_errors.append(maxf(bone_end(rb[4]).distance_to(ends[0]), bone_end(rb[6]).distance_to(ends[1])))
		stacked_errors.append(maxf(bone_end(sb[4]).distance_to(ends[0]), bone_end(sb[6]).distance_to(ends[1])))
		stacked_motion.append(sb[2].global_position.distance_to(before))
	print("reachable together, worst tip error per frame: rig %s" % [rig_errors])
	print("  stacked FabrikChain2D x2: %s; chest moved %s px" % [stacked_errors, stacked_motion])
	expect(rig_errors[0] <= rig.tolerance + 1e-3, "the rig reaches both in its first solve (%s px)" % rig_errors[0])
	expect(stacked_errors[0] > 5.0, "stacked chains: the second undid the first (%s px)" % stacked_errors[0])

	# Out of reach together: hands pulled far apart.
	ta.global_position = Vector2(300, 300) + Vector2(-220, -120)
	tb.global_position = Vector2(300, 300) + Vector2(230, -60)
	var rig_change := 0.0
	var stacked_change := 0.0
	var rig_left := 0.0
	var rig_right := 0.0
	for frame in 120:
		var r0 := rotations_of(rb)
		var s0 := rotations_of(sb)
		rig.solve()
		chains[0].solve()
		chains[1].solve()
		if frame >= 100:
			for i in rb.size():
				rig_change = maxf(rig_change, absf(rb[i].rotation - r0[i]))
				stacked_change = maxf(stacked_change, absf(sb[i].rotation - s0[i]))
	rig_left = bone_end(rb[4]).distance_to(ta.global_position)
	rig_right = bone_end(rb[6]).distance_to(tb.global_position)
	var st_left := bone_end(sb[4]).distance_to(ta.global_position)
	var st_right := bone_end(sb[6]).distance_to(tb.global_position)
	print("out of reach, frames 100-119: rig's largest rotation change per frame %.7f rad; errors left %.2f px, right %.2f px" % [rig_change, rig_left, rig_right])
	print("  stacked: largest rotation change per frame %.7f rad; errors left %.2f px, right %.2f px" % [stacked_change, st_left, st_right])
	expect(rig_change < 1e-4, "the rig's compromise is stable frame to frame (%s rad)" % rig_change)
	expect(maxf(rig_left, rig_right) < maxf(st_left, st_right), "the rig's worst hand is nearer than the stacked chains' worst")
	# Heavier left: the left hand comes nearer.
	rig.effector_weights = PackedFloat32Array([4.0, 1.0])
	for frame in 60:
		rig.solve()
	var heavy_left := bone_end(rb[4]).distance_to(ta.global_position)
	print("  effector_weights [4, 1]: left %.2f px (was %.2f), right %.2f px" % [heavy_left, rig_left, bone_end(rb[6]).distance_to(tb.global_position)])
	expect(heavy_left < rig_left, "a heavier effector gets nearer its target")


func test_bad_input_one_message_no_nan() -> void:
	var bones := make_creature()
	var ta := make_target(Vector2(350, 200))
	var tb := Node2D.new()
	tb.name = "TargetB"
	add_child(tb)
	tb.global_position = Vector2(450, 200)
	var rig := make_fabrik_rig(bones, [ta, tb])
	expect(rig.solve(), "good setup solves")
	var good := rotations_of(bones)
	error_log.take()
	# Each broken setup: the solve refuses, one message over many frames, the bones keep their pose.
	var cases := [
		["no root", func(): rig.root_bone = null, func(): rig.root_bone = bones[0], "root_bone"],
		["no tips", func(): rig.tip_bones = [] as Array[NodePath], func(): rig.tip_bones = [rig.get_path_to(bones[4]), rig.get_path_to(bones[6])] as Array[NodePath], "tip_bones"],
		["tip path wrong", func(): rig.tip_bones = [NodePath("nowhere"), rig.get_path_to(bones[6])] as Array[NodePath], func(): rig.tip_bones = [rig.get_path_to(bones[4]), rig.get_path_to(bones[6])] as Array[NodePath], "tip_bones[0]"],
		["tip not under root", func(): rig.root_bone = bones[3], func(): rig.root_bone = bones[0], "tip_bones[1]"],
		["tip on another tip's branch", func(): rig.tip_bones = [rig.get_path_to(bones[3]), rig.get_path_to(bones[4])] as Array[NodePath], func(): rig.tip_bones = [rig.get_path_to(bones[4]), rig.get_path_to(bones[6])] as Array[NodePath], "another tip"],
		["mismatched arrays", func(): rig.targets = [rig.get_path_to(ta)] as Array[NodePath], func(): rig.targets = [rig.get_path_to(ta), rig.get_path_to(tb)] as Array[NodePath], "differ in length"],
		["empty target path", func(): rig.targets = [rig.get_path_to(ta), NodePath("")] as Array[NodePath], func(): rig.targets = [rig.get_path_to(ta), rig.get_path_to(tb)] as Array[NodePath], "targets[1]"],
		["NaN target", func(): tb.global_position = Vector2(NAN, 0), func(): tb.global_position = Vector2(450, 200), "targets[1]"],
	]
	for c in cases:
		c[1].call()
		for frame in 20:
			expect(not rig.solve(), "%s: refused" % c[0])
		var messages := error_log.take()
		expect(messages.size() == 1, "%s: one message (got %s)" % [c[0], messages])
		if messages.size() > 0:
			expect(c[3] in messages[0], "%s: the message names %s: %s" % [c[0], c[3], messages[0]])
		expect(rig.get_setup_warning() != "", "%s: a configuration warning" % c[0])
		var now := rotations_of(bones)
		for i in bones.size():
			expect(is_finite(now[i]), "%s: no NaN" % c[0])
		c[2].call()
		expect(rig.solve(), "%s fixed: solves again" % c[0])
		error_log.take()
	# A freed target: one message, then a new node at the path is found.
	var path: NodePath = rig.get_path_to(tb)
	var tb_name := tb.name
	tb.free()
	for frame in 20:
		expect(not rig.solve(), "freed target: refused")
	var freed := error_log.take()
	expect(freed.size() == 1 and "targets[1]" in freed[0], "freed target: one message (%s)" % [freed])
	var replacement := Node2D.new()
	replacement.name = tb_name
	add_child(replacement)
	replacement.global_position = Vector2(450, 200)
	expect(rig.get_path_to(replacement) == path, "replacement at the same path")
	expect(rig.solve(), "a new target at the path is found")
	# Bad values through the setters: refused, kept.
	rig.effector_weights = PackedFloat32Array([1.0, -2.0])
	rig.set("effector_weights", PackedFloat32Array([NAN, 1.0]))
	expect(rig.effector_weights.size() == 0, "bad weights kept out")
	for route in ["weight", "tolerance"]:
		var before: float = rig.get(route)
		rig.set(route, -1.0)
		rig.set(route, NAN)
		expect(rig.get(route) == before, "%s: bad values refused" % route)
	rig.max_iterations = -5
	rig.update_mode = 7
	expect(rig.max_iterations == 64 and rig.update_mode == 2, "ints refused")
	rig.set_angle_limits(0, NAN, 0.5)
	rig.set_angle_limits(99, -0.5, 0.5)
	var refusals := error_log.take()
	expect(refusals.size() == 10, "one error per refused value (got %d: %s)" % [refusals.size(), refusals])
	expect(rig.solve(), "still solves after the refused values")
	for r in rotations_of(bones):
		expect(is_finite(r), "no NaN after the refused values")
	# Wrong kinds in the effector arrays: a path to a node that is not a Bone2D, values that are not paths.
	rig.tip_bones = [rig.get_path_to(ta), rig.get_path_to(bones[6])] as Array[NodePath]
	for frame in 10:
		expect(not rig.solve(), "a tip that is not a Bone2D: refused")
	var wrong := error_log.take()
	expect(wrong.size() == 1 and "tip_bones[0]" in wrong[0], "a tip that is not a Bone2D: one message (%s)" % [wrong])
	var kept: Array = rig.tip_bones
	rig.set("tip_bones", [5, "x"])
	rig.set("targets", 3.5)
	var kinds := error_log.take()
	print("wrong kinds for the arrays: %s" % [kinds])
	expect(kinds.size() == 2, "one error per wrong kind (%s)" % [kinds])
	expect(rig.tip_bones == kept, "tip_bones kept")
	rig.tip_bones = [rig.get_path_to(bones[4]), rig.get_path_to(bones[6])] as Array[NodePath]
	expect(rig.solve(), "solves again")
	expect(error_log.take_panics().is_empty(), "no panic")


func test_untyped_arrays_from_scripts_are_converted() -> void:
	# A script that holds the rig as a plain Node (or calls set()) hands over untyped [...] literals: paths as
	# NodePaths or Strings, weights as ints or floats. They are converted; a wrong entry is one error, value kept.
	var bones := make_creature()
	var ta := make_target(Vector2(350, 200))
	var tb := make_target(Vector2(450, 200))
	var rig: Node = ClassDB.instantiate("FabrikRig2D")
	rig.update_mode = 2
	add_child(rig)
	rig.root_bone = bones[0]
	rig.tip_bones = [rig.get_path_to(bones[4]), String(rig.get_path_to(bones[6]))]
	rig.set("targets", [rig.get_path_to(ta), rig.get_path_to(tb)])
	rig.effector_weights = [2, 1.5]
	expect(rig.tip_bones.size() == 2 and rig.tip_bones[1] == rig.get_path_to(bones[6]), "untyped tips taken (%s)" % [rig.tip_bones])
	expect(rig.targets.size() == 2, "untyped targets taken (%s)" % [rig.targets])
	expect(rig.effector_weights == PackedFloat32Array([2.0, 1.5]), "untyped weights taken (%s)" % [rig.effector_weights])
	expect(rig.solve(), "the rig set from untyped arrays solves")
	expect(error_log.take().is_empty(), "no error for untyped arrays of the right kinds")
	rig.tip_bones = [rig.get_path_to(bones[4]), Vector2.ONE]
	rig.effector_weights = ["heavy", 1.0]
	rig.targets = "TargetA"
	var refusals := error_log.take()
	expect(refusals.size() == 3, "one error per wrong value (%s)" % [refusals])
	expect(rig.tip_bones.size() == 2 and rig.effector_weights.size() == 2, "values kept")
	expect(rig.solve(), "still solves")
	expect(error_log.take_panics().is_empty(), "no panic")


func test_no_allocation_per_solve() -> void:
	var bones := make_creature()
	var ta := make_target(Vector2(350, 200))
	var tb := make_target(Vector2(450, 200))
	var rig := make_fabrik_rig(bones, [ta, tb])
	rig.set_angle_limits(1, -0.3, 0.3)
	for frame in 3:
		rig.solve()
	var baseline: int = ClassDB.class_call_static("Reach2DDebug", "node_heap_allocations")
	for frame in 60:
		ta.global_position = Vector2(350 + 20 * sin(frame * 0.2), 200)
		# As an AnimationPlayer animating a property does: set() every frame, which asks the node's `_set` first.
		rig.set("weight", 0.9 + 0.1 * sin(frame * 0.1))
		rig.solve()
	var used: int = ClassDB.class_call_static("Reach2DDebug", "node_heap_allocations") - baseline
	print("FabrikRig2D: %d heap allocations in 60 solves with set() every frame" % used)
	expect(used == 0, "60 solves with set() every frame made %d heap allocations in the nodes' code" % used)
	expect(rig.get_bone_count() == 7, "seven bones in the rig (got %d)" % rig.get_bone_count())
	expect(rig.get_rig_bone(3) == bones[3], "bone order: the first branch, then the second's new bones")

extends "res://lib/test_case.gd"
## FabrikRig2D over a real two-armed Skeleton2D (a spine of three bones, the chest carrying both shoulders at
## different points, two two-bone arms, bone angles != 0): reach, exact lengths, limits, the mirrored rig, the stable
## compromise out of reach, the comparison with two stacked FabrikChain2D on the shared spine, and bad input.


## The bones of a two-armed creature (Characters.two_armed: spine_0, spine_1, chest, left_0, left_1, right_0,
## right_1) on a skeleton at `at` with `skeleton_scale`.
func make_creature(skeleton_scale := Vector2.ONE, at := Vector2(400, 300)) -> Array:
	return Characters.two_armed(self, at, skeleton_scale)["bones"]


## A scene saved before effector_tips (issue 31): the editor test's fixture, its rig's effectors NodePath arrays.
const RIG_SCENE_BEFORE := "res://editor/rig_roundtrip.tscn"


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
	var solved := 0
	var moved := 0
	for c in 60:
		ta.global_position = Vector2(400, 300) + Vector2(rng.randf_range(-150, 150), rng.randf_range(-200, 60))
		tb.global_position = Vector2(400, 300) + Vector2(rng.randf_range(-150, 150), rng.randf_range(-200, 60))
		var before := rotations_of(bones)
		if rig.solve():
			solved += 1
		if rotations_of(bones) != before:
			moved += 1
		for i in limits:
			var r: float = wrapf(bones[i].rotation, -PI, PI)
			var outside := maxf(limits[i].x - r, r - limits[i].y)
			worst = maxf(worst, outside)
	print("FabrikRig2D limits: worst excess %.6f rad over 60 random target pairs" % maxf(worst, 0.0))
	expect(worst <= 1e-4, "limits hold (worst excess %s rad)" % worst)
	expect(solved == 60 and moved == 60, "every target pair was solved (%d of 60) and turned the bones (%d of 60)" % [solved, moved])


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
	# How far the plain rig's hands moved from where they started: mirror images that never moved prove nothing.
	var reached := 0.0
	var start_ends := {4: bone_end(plain[4]), 6: bone_end(plain[6])}
	for frame in 120:
		var t := frame / 20.0
		var a := Vector2(-60 + 30 * cos(t), -110 + 40 * sin(1.3 * t))
		var b := Vector2(70 + 50 * sin(t), -90 + 30 * cos(0.7 * t))
		pa.global_position = Vector2(300, 300) + a
		pb.global_position = Vector2(300, 300) + b
		fa.global_position = Vector2(700, 300) + Vector2(-a.x, a.y)
		fb.global_position = Vector2(700, 300) + Vector2(-b.x, b.y)
		expect(rig_plain.solve() and rig_flipped.solve(), "frame %d: both rigs solve" % frame)
		for i in [4, 6]:
			reached = maxf(reached, bone_end(plain[i]).distance_to(start_ends[i]))
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
	expect(reached > 20.0, "the hands followed their targets (up to %.1f px from the start)" % reached)


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
	error_log.take()
	var hands: Array[Bone2D] = [bones[4], bones[6]]
	var unset_tip: Array[Bone2D] = [null, bones[6]]
	var unset_target: Array[Node2D] = [ta, null]
	var both: Array[Node2D] = [ta, tb]
	# Each broken setup: the solve refuses, one message over many frames, the bones keep their pose.
	var cases := [
		["no root", func(): rig.root_bone = null, func(): rig.root_bone = bones[0], "root_bone"],
		["no tips", func(): rig.effector_tips = [] as Array[Bone2D], func(): rig.effector_tips = hands, "effector_tips"],
		["tip unset", func(): rig.effector_tips = unset_tip, func(): rig.effector_tips = hands, "effector_tips[0]"],
		["tip not under root", func(): rig.root_bone = bones[3], func(): rig.root_bone = bones[0], "effector_tips[1]"],
		["tip on another tip's branch", func(): rig.effector_tips = [bones[3], bones[4]] as Array[Bone2D], func(): rig.effector_tips = hands, "another tip"],
		["mismatched arrays", func(): rig.effector_targets = [ta] as Array[Node2D], func(): rig.effector_targets = both, "differ in length"],
		["target unset", func(): rig.effector_targets = unset_target, func(): rig.effector_targets = both, "effector_targets[1]"],
		["NaN target", func(): tb.global_position = Vector2(NAN, 0), func(): tb.global_position = Vector2(450, 200), "effector_targets[1]"],
		["target out of the tree", func(): remove_child(tb), func(): add_child(tb), "effector_targets[1]"],
		["tip appended in place", func(): rig.effector_tips.append(bones[2]), func(): rig.effector_tips.pop_back(), "differ in length"],
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
		for r in rotations_of(bones):
			expect(is_finite(r), "%s: no NaN" % c[0])
		c[2].call()
		expect(rig.solve(), "%s fixed: solves again" % c[0])
		error_log.take()
	# A freed target: one message until another node takes its place in the array.
	tb.free()
	for frame in 20:
		expect(not rig.solve(), "freed target: refused")
	var freed := error_log.take()
	expect(freed.size() == 1 and "effector_targets[1]" in freed[0], "freed target: one message (%s)" % [freed])
	var replacement := make_target(Vector2(450, 200))
	rig.effector_targets = [ta, replacement]
	expect(rig.solve(), "a new target in the array is taken")
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
	rig.add_effector(bones[2], ta, -1.0)
	rig.add_effector(bones[2], ta, NAN)
	var refusals := error_log.take()
	expect(refusals.size() == 12, "one error per refused value (got %d: %s)" % [refusals.size(), refusals])
	expect(rig.effector_tips.size() == 2, "add_effector with a bad weight adds nothing")
	expect(rig.solve(), "still solves after the refused values")
	for r in rotations_of(bones):
		expect(is_finite(r), "no NaN after the refused values")
	# Wrong kinds for the arrays from an untyped script: a node that is not a Bone2D, values that are no nodes.
	var kept: Array = rig.effector_tips
	rig.set("effector_tips", [ta, bones[6]])
	rig.set("effector_tips", [5, "x"])
	rig.set("effector_targets", 3.5)
	var kinds := error_log.take()
	print("wrong kinds for the arrays: %s" % [kinds])
	expect(kinds.size() == 3, "one error per wrong kind (%s)" % [kinds])
	expect(kinds.size() > 0 and "effector_tips[0]" in kinds[0], "the entry is named: %s" % [kinds])
	expect(rig.effector_tips == kept, "effector_tips kept")
	expect(rig.solve(), "solves again")
	expect(error_log.take_panics().is_empty(), "no panic")


func test_effectors_are_set_like_the_other_nodes_bones() -> void:
	# Nodes, before the rig is in the tree: the arrays from an untyped script (converted), or add_effector.
	for route in ["arrays", "add_effector", "typed", "append", "static"]:
		for side in [1.0, -1.0]:
			var creature := Characters.two_armed(self, Vector2(400, 300), Vector2(side, 1))
			var bones: Array = creature["bones"]
			var ta := Rig.target(creature["skeleton"], "TargetA", Vector2(400 - side * 50, 230))
			var tb := Rig.target(creature["skeleton"], "TargetB", Vector2(400 + side * 40, 240))
			var rig: Node = ClassDB.instantiate("FabrikRig2D")
			if route == "static":
				rig.free()
				# The README's snippet: a statically typed FabrikRig2D and [...] literals of nodes.
				var typed := FabrikRig2D.new()
				typed.effector_tips = [bones[4], bones[6]]
				typed.effector_targets = [ta, tb]
				rig = typed
			rig.update_mode = 2
			rig.root_bone = bones[0]
			match route:
				"arrays":
					rig.effector_tips = [bones[4], bones[6]]
					rig.set("effector_targets", [ta, tb])
					rig.effector_weights = [2, 1.5]
				"add_effector":
					rig.add_effector(bones[4], ta, 2.0)
					rig.add_effector(bones[6], tb)
				"typed":
					var tips: Array[Bone2D] = [bones[4], bones[6]]
					var targets: Array[Node2D] = [ta, tb]
					rig.effector_tips = tips
					rig.effector_targets = targets
				"append":
					# Changed in place, as a script may: read at every solve.
					rig.effector_tips.append(bones[4])
					rig.effector_targets.append(ta)
			creature["skeleton"].add_child(rig)
			if route == "append":
				rig.effector_tips.append(bones[6])
				expect(not rig.solve(), "append: a tip without its target yet is refused")
				expect(error_log.take().size() == 1, "append: with one message")
				rig.effector_targets.append(tb)
			var label := "%s, %s" % [route, "mirrored" if side < 0.0 else "unmirrored"]
			expect(error_log.take().is_empty(), "%s: no error" % label)
			expect(rig.effector_tips.size() == 2 and rig.effector_tips[1] == bones[6], "%s: tips taken (%s)" % [label, rig.effector_tips])
			for i in 3:
				rig.solve()
			expect(rig.last_error >= 0.0 and rig.last_error <= 0.5, "%s: both hands reach (%s px)" % [label, rig.last_error])
			if route in ["arrays", "add_effector"]:
				expect(rig.effector_weights[0] == 2.0, "%s: weights taken (%s)" % [label, rig.effector_weights])
			# The deprecated paths read as the paths to the nodes.
			expect(rig.tip_bones == [rig.get_path_to(bones[4]), rig.get_path_to(bones[6])], "%s: tip_bones reads the paths (%s)" % [label, rig.tip_bones])
			rig.clear_effectors()
			expect(rig.effector_tips.is_empty() and rig.effector_weights.is_empty(), "%s: clear_effectors empties them" % label)
			creature["skeleton"].free()


func test_node_paths_from_before_still_work() -> void:
	# Scripts written before effector_tips: paths relative to the rig, typed or untyped, Strings too.
	var bones := make_creature()
	var ta := make_target(Vector2(350, 200))
	var tb := make_target(Vector2(450, 200))
	var rig: Node = ClassDB.instantiate("FabrikRig2D")
	rig.update_mode = 2
	add_child(rig)
	rig.root_bone = bones[0]
	rig.tip_bones = [rig.get_path_to(bones[4]), String(rig.get_path_to(bones[6]))]
	rig.set("targets", [rig.get_path_to(ta), rig.get_path_to(tb)] as Array[NodePath])
	expect(rig.effector_tips == [bones[4], bones[6]], "the paths became the nodes (%s)" % [rig.effector_tips])
	expect(rig.effector_targets == [ta, tb], "the target paths too (%s)" % [rig.effector_targets])
	expect(rig.solve(), "the rig set from paths solves")
	expect(error_log.take().is_empty(), "no error for paths of the right kinds")
	rig.tip_bones = [rig.get_path_to(bones[4]), Vector2.ONE]
	rig.targets = "TargetA"
	var refusals := error_log.take()
	expect(refusals.size() == 2, "one error per wrong value (%s)" % [refusals])
	# A path that leads nowhere yet: reported once, then found when the node appears.
	var late := Node2D.new()
	late.name = "Late"
	rig.targets = [rig.get_path_to(ta), NodePath("../Late")]
	for frame in 10:
		expect(not rig.solve(), "a path to nothing yet: refused")
	var missing := error_log.take()
	expect(missing.size() == 1 and "effector_targets[1]" in missing[0], "a path to nothing yet: one message (%s)" % [missing])
	add_child(late)
	late.global_position = Vector2(450, 200)
	expect(rig.solve() and rig.effector_targets[1] == late, "the late target is found")
	expect(error_log.take_panics().is_empty(), "no panic")


func test_a_scene_saved_with_node_paths_loads_and_saves_as_nodes() -> void:
	# The text a scene saved before effector_tips holds (tip_bones and targets as NodePath arrays), mirrored and not:
	# it loads, solves, and saved again stores the node arrays (node_paths) and no path arrays.
	var before := FileAccess.get_file_as_string(RIG_SCENE_BEFORE)
	expect("tip_bones = Array[NodePath]" in before, "the fixture holds the paths as saved before")
	for side in [1, -1]:
		var text := before
		if side < 0:
			# The same scene mirrored: the skeleton turned around, the targets swapped across its x.
			text = text.replace("position = Vector2(400, 400)", "position = Vector2(400, 400)\nscale = Vector2(-1, 1)")
			text = text.replace("Vector2(350, 290)", "Vector2(TMP, 290)").replace("Vector2(450, 290)", "Vector2(350, 290)").replace("Vector2(TMP, 290)", "Vector2(450, 290)")
		var path := "user://rig_before_%d.tscn" % (side + 1)
		var file := FileAccess.open(path, FileAccess.WRITE)
		file.store_string(text)
		file.close()
		var scene: PackedScene = ResourceLoader.load(path, "", ResourceLoader.CACHE_MODE_IGNORE)
		expect(scene != null, "side %d: the scene from before loads" % side)
		if scene == null:
			continue
		var root: Node2D = scene.instantiate()
		add_child(root)
		var rig: Node = root.get_node("FabrikRig2D")
		var hands := [root.get_node("Skeleton/spine/arm_a/hand_a"), root.get_node("Skeleton/spine/arm_b/hand_b")]
		expect(rig.effector_tips == hands, "side %d: tip_bones became effector_tips (%s)" % [side, rig.effector_tips])
		expect(rig.effector_targets == [root.get_node("TargetA"), root.get_node("TargetB")], "side %d: targets became effector_targets" % side)
		expect(rig.effector_weights == PackedFloat32Array([1, 2]), "side %d: weights kept" % side)
		for i in 3:
			rig.solve()
		expect(rig.last_error >= 0.0 and rig.last_error <= rig.tolerance, "side %d: it solves (%s px)" % [side, rig.last_error])
		var packed := PackedScene.new()
		expect(packed.pack(root) == OK, "side %d: packs again" % side)
		var again := "user://rig_again_%d.tscn" % (side + 1)
		ResourceSaver.save(packed, again)
		var saved := FileAccess.get_file_as_string(again)
		expect("effector_tips = [NodePath(\"../Skeleton/spine/arm_a/hand_a\"), NodePath(\"../Skeleton/spine/arm_b/hand_b\")]" in saved, "side %d: saved as effector_tips: %s" % [side, saved])
		expect("\"effector_tips\", \"effector_targets\"" in saved and not "tip_bones" in saved and not "\ntargets =" in saved, "side %d: as node references, no path arrays: %s" % [side, saved])
		var reloaded: Node2D = (ResourceLoader.load(again, "", ResourceLoader.CACHE_MODE_IGNORE) as PackedScene).instantiate()
		add_child(reloaded)
		var rig_again: Node = reloaded.get_node("FabrikRig2D")
		expect(rig_again.effector_tips.size() == 2 and rig_again.effector_tips[0] == reloaded.get_node("Skeleton/spine/arm_a/hand_a"), "side %d: the node arrays load back" % side)
		expect(rig_again.solve(), "side %d: and solve" % side)
		for node in [root, reloaded]:
			node.free()
		for p in [path, again]:
			DirAccess.remove_absolute(ProjectSettings.globalize_path(p))


func test_no_allocation_per_solve() -> void:
	var bones := make_creature()
	var ta := make_target(Vector2(350, 200))
	var tb := make_target(Vector2(450, 200))
	var rig := make_fabrik_rig(bones, [ta, tb])
	rig.set_angle_limits(1, -0.3, 0.3)
	for frame in 3:
		rig.solve()
	var pose := rotations_of(bones)
	var moved := 0
	var solved := 0
	var baseline: int = ClassDB.class_call_static("Reach2DDebug", "node_heap_allocations")
	for frame in 60:
		ta.global_position = Vector2(350 + 20 * sin(frame * 0.2), 200)
		# As an AnimationPlayer animating a property does: set() every frame, which asks the node's `_set` first.
		rig.set("weight", 0.9 + 0.1 * sin(frame * 0.1))
		if rig.solve():
			solved += 1
		if rotations_of(bones) != pose:
			moved += 1
		pose = rotations_of(bones)
	var used: int = ClassDB.class_call_static("Reach2DDebug", "node_heap_allocations") - baseline
	print("FabrikRig2D: %d heap allocations in 60 solves with set() every frame" % used)
	expect(used == 0, "60 solves with set() every frame made %d heap allocations in the nodes' code" % used)
	expect(solved == 60 and moved == 60, "every solve succeeded (%d of 60) and turned the bones (%d of 60)" % [solved, moved])
	expect(rig.get_bone_count() == 7, "seven bones in the rig (got %d)" % rig.get_bone_count())
	expect(rig.get_rig_bone(3) == bones[3], "bone order: the first branch, then the second's new bones")

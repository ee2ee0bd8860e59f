extends "res://lib/test_case.gd"
## Animator controls: the tip bone following the target's rotation (unmirrored and under the mirror setups of
## test_mirror.gd), solving from rest (the same target gives the same pose; animation still layers under it), and
## the speed limit (per-tick change within max_angular_speed * delta at two physics rates, angle limits held).

const CHAINS := Nodes.CHAINS
## The controls of the target-driven nodes (the Motion group) are tested on each of them.
var CLASSES := Nodes.with_target()
const SETUPS := MirrorRig.SETUPS


## A character holding a skeleton with a 4-bone zig-zag chain (bone_angle 0.3 on the tip), mirrored by `setup`.
func make_mirror_case(setup: String) -> Dictionary:
	var case := MirrorRig.make(self, setup)
	(case["bones"][3] as Bone2D).set_bone_angle(0.3)
	return case


## Poses `bones` with `rotations`, returns the tip's end and the global rotation of bone `tip`'s x axis, and puts the
## pose back.
func pose_of(bones: Array, rotations: Array, tip: int) -> Array:
	var saved := rotations_of(bones)
	for i in rotations.size():
		bones[i].rotation = rotations[i]
	var result := [bone_end(bones[tip]), bones[tip].global_transform.x.angle()]
	for i in bones.size():
		bones[i].rotation = saved[i]
	return result


## How far (radians) the tip bone's global x axis is from the target's.
func tip_direction_error(tip: Bone2D, target: Node2D) -> float:
	return absf(tip.global_transform.x.angle_to(target.global_transform.x))


func test_tip_follows_the_target_rotation_under_mirroring() -> void:
	var report := []
	for klass in CHAINS + ["TwoBoneIk2D"]:
		var worst_angle := 0.0
		var worst_error := 0.0
		for setup in SETUPS:
			var case := make_mirror_case(setup)
			var bones: Array = case["bones"]
			var tip := 1 if klass == "TwoBoneIk2D" else 3
			# A target pose the chain can take (a two-bone limb can only reach it at one angle); the plain solve ends
			# elsewhere, at another tip angle.
			var wanted: Array = pose_of(bones, [1.0, 0.6, -0.4, 0.9], tip)
			var target := make_target(wanted[0])
			target.global_rotation = wanted[1]
			var ik: Node2D = make_ik(klass, case["skeleton"], target, 0, tip)
			ik.match_target_rotation = true
			if tip == 3:
				ik.max_iterations = 64
			var before := joints_of(bones.slice(0, tip + 1))
			expect(ik.solve(), "%s %s: solved" % [klass, setup])
			var angle := tip_direction_error(bones[tip], target)
			var error := bone_end(bones[tip]).distance_to(target.global_position)
			worst_angle = maxf(worst_angle, angle)
			worst_error = maxf(worst_error, error)
			var label := "%s %s" % [klass, setup]
			expect(angle < 1e-3, "%s: the tip bone's x axis takes the target's rotation (off by %s rad)" % [label, angle])
			expect(error < (ik.tolerance + 1e-3 if tip == 3 else 1e-2), "%s: the tip reaches the target (%s px)" % [label, error])
			expect_near(ik.last_error, error, 1e-3, "%s: last_error is the real distance" % label)
			expect(worst_length_change(before, joints_of(bones.slice(0, tip + 1))) < 1e-4, "%s: lengths kept" % label)
			for node in [case["character"], target, ik]:
				node.free()
		report.append("%s match_target_rotation over %d mirror setups: worst tip direction error %.6f rad, worst distance %.6f px" % [klass, SETUPS.size(), worst_angle, worst_error])
	print("\n".join(report))


func test_tip_rotation_of_a_mirrored_character_is_the_mirror_image() -> void:
	for klass in CHAINS + ["TwoBoneIk2D"]:
		var a := make_mirror_case("none")
		var b := make_mirror_case("none")
		b["character"].scale = Vector2(-1, 1)
		var tip := 1 if klass == "TwoBoneIk2D" else 3
		var local_goal: Vector2 = a["character"].to_local(pose_of(a["bones"], [0.9, 0.5, -0.3, 0.8], tip)[0])
		var iks := []
		for case in [a, b]:
			# The target is part of the character, so it mirrors with it: position and rotation.
			var target := Node2D.new()
			case["character"].add_child(target)
			target.position = local_goal
			target.rotation = 0.4
			var ik: Node2D = make_ik(klass, case["skeleton"], target, 0, tip)
			ik.match_target_rotation = true
			var before := rotations_of(case["bones"])
			expect(ik.solve(), "%s: solves" % klass)
			expect(largest_rotation_difference(before, rotations_of(case["bones"])) > 0.05, "%s: the solve turned the bones" % klass)
			iks.append(ik)
		var axis: float = a["character"].global_position.x
		var ja := joints_of(a["bones"].slice(0, tip + 1))
		var jb := joints_of(b["bones"].slice(0, tip + 1))
		var worst := largest_mirror_distance(ja, jb, axis)
		expect(worst < 1e-2, "%s: the mirrored character's pose is the mirror image (worst %s px)" % [klass, worst])
		print("%s tip rotation mirror image: worst joint difference %.6f px" % [klass, worst])
		for node in [a["character"], b["character"]] + iks:
			node.free()


func test_tip_rotation_holds_angle_limits_and_weight_zero_changes_nothing() -> void:
	for klass in CHAINS + ["TwoBoneIk2D"]:
		var tip := 1 if klass == "TwoBoneIk2D" else 3
		var case := make_mirror_case("skeleton_x")
		var bones: Array = case["bones"]
		var target := make_target(pose_of(bones, [1.0, 0.6, -0.4, 0.9], tip)[0])
		target.global_rotation = 2.5
		var ik: Node2D = make_ik(klass, case["skeleton"], target, 0, tip)
		ik.match_target_rotation = true
		ik.set_angle_limits(tip, -0.3, 0.3)
		ik.solve()
		var r: float = wrapf(bones[tip].rotation, -PI, PI)
		expect(r >= -0.3 - 1e-4 and r <= 0.3 + 1e-4, "%s: the tip's angle limit holds (rotation %s)" % [klass, r])
		# Weight 0: the pose a solve without match_target_rotation gives, from the same start.
		var other := make_mirror_case("skeleton_x")
		var plain: Node2D = make_ik(klass, other["skeleton"], target, 0, tip)
		var weighted: Node2D = make_ik(klass, case["skeleton"], target, 0, tip)
		ik.free()
		for i in bones.size():
			bones[i].rotation = other["bones"][i].rotation
		weighted.match_target_rotation = true
		weighted.target_rotation_weight = 0.0
		plain.solve()
		weighted.solve()
		var worst := largest_rotation_difference(rotations_of(bones), rotations_of(other["bones"]))
		expect(worst < 1e-4, "%s: target_rotation_weight 0 gives the plain pose (worst %s rad)" % [klass, worst])
		# Weight 0.5: the tip's direction is halfway between the plain one and the target's.
		var plain_angle: float = other["bones"][tip].global_transform.x.angle()
		weighted.target_rotation_weight = 0.5
		for i in bones.size():
			bones[i].rotation = case["bones"][i].rest.get_rotation()
		for i in bones.size():
			other["bones"][i].rotation = other["bones"][i].rest.get_rotation()
		plain.solve()
		weighted.solve()
		plain_angle = other["bones"][tip].global_transform.x.angle()
		var half := lerp_angle(plain_angle, target.global_rotation, 0.5)
		var off := absf(angle_difference(bones[tip].global_transform.x.angle(), half))
		expect(off < 1e-3, "%s: target_rotation_weight 0.5 turns the tip halfway (off by %s rad)" % [klass, off])
		for node in [case["character"], other["character"], target, plain, weighted]:
			node.free()


## A chain node on a fresh 4-bone chain (rest = the starting pose); `from_rest` set.
func rest_case(klass: String, from_rest: bool) -> Dictionary:
	var skeleton := make_chain([50.0, 40.0, 35.0, 30.0], [0.4, -0.9, 0.8, -0.5])
	var bones := bones_of(skeleton)
	var target := make_target(Vector2.ZERO)
	var tip := 1 if klass == "TwoBoneIk2D" else 3
	var ik: Node2D
	if klass == "LookAt2D":
		ik = make_ik(klass, skeleton, target, 3)
	else:
		ik = make_ik(klass, skeleton, target, 0, tip)
	ik.solve_from_rest = from_rest
	return {"skeleton": skeleton, "bones": bones, "target": target, "ik": ik}


func test_solve_from_rest_gives_the_same_pose_for_the_same_target() -> void:
	var a := Vector2(470, 390)
	var b := Vector2(330, 250)
	for klass in CLASSES:
		for from_rest in [true, false]:
			var case := rest_case(klass, from_rest)
			var ik: Node2D = case["ik"]
			var bones: Array = case["bones"]
			case["target"].global_position = a
			ik.solve()
			var first := rotations_of(bones)
			case["target"].global_position = b
			for i in 3:
				ik.solve()
			case["target"].global_position = a
			ik.solve()
			var worst := largest_rotation_difference(first, rotations_of(bones))
			if from_rest:
				expect(worst < 1e-5, "%s solve_from_rest: the same target gives the same pose (worst %s rad)" % [klass, worst])
			elif klass in CHAINS:
				# Warm start: the chain solves from the pose the other target left, and lands elsewhere.
				expect(worst > 1e-3, "%s without solve_from_rest: the pose depends on the previous target (%s rad)" % [klass, worst])
			print("%s solve_from_rest=%s: same target after another, worst rotation difference %.6f rad" % [klass, from_rest, worst])
			for key in ["skeleton", "target", "ik"]:
				case[key].free()


## Two chains animated by one AnimationPlayer each (rotation keys that keep moving), both solving from rest, one at
## weight 1 and one at 0.5; the bones' rest is 0, away from the animated pose.
func test_solve_from_rest_starts_from_the_animated_pose() -> void:
	var cases := []
	for weight in [1.0, 0.5]:
		var skeleton := make_chain([40.0, 30.0, 20.0], [0.5, -0.4, 0.3])
		skeleton.name = "Skeleton%d" % get_child_count()
		for bone in bones_of(skeleton):
			bone.rest = Transform2D(0.0, bone.position)
		var target := make_target(skeleton.global_position + Vector2(30, 50))
		var ik := make_ik("FabrikChain2D", skeleton, target, 0, -1, 0)
		ik.solve_from_rest = true
		ik.weight = weight
		var player := AnimationPlayer.new()
		var library := AnimationLibrary.new()
		var animation := Animation.new()
		animation.length = 1.0
		animation.loop_mode = Animation.LOOP_LINEAR
		var path := String(skeleton.name)
		for i in 3:
			path += "/bone_%d" % i
			var track := animation.add_track(Animation.TYPE_VALUE)
			animation.track_set_path(track, path + ":rotation")
			animation.track_insert_key(track, 0.0, 0.5 + 0.2 * i)
			animation.track_insert_key(track, 1.0, 1.1 + 0.2 * i)
		library.add_animation("pose", animation)
		player.add_animation_library("", library)
		add_child(player)
		player.play("pose")
		cases.append({"skeleton": skeleton, "bones": bones_of(skeleton), "target": target, "ik": ik, "player": player, "animation": animation})
	var worst := 0.0
	var moved := 0.0
	for frame in 8:
		await get_tree().process_frame
		var full: Dictionary = cases[0]
		var half: Dictionary = cases[1]
		for i in 3:
			var animated: float = half["animation"].value_track_interpolate(i, half["player"].current_animation_position)
			var expected := lerp_angle(animated, full["bones"][i].rotation, 0.5)
			worst = maxf(worst, absf(angle_difference(half["bones"][i].rotation, expected)))
			moved = maxf(moved, absf(angle_difference(half["bones"][i].rotation, animated)))
	expect(moved > 1e-2, "the IK changed the animated pose (%s rad)" % moved)
	expect(worst < 1e-3, "each frame the solve starts from the animated pose, not the rest: weight 0.5 is halfway between animation and IK (worst %s rad)" % worst)
	print("solve_from_rest under animation: worst deviation from lerp_angle(animated, solved, 0.5) %.6f rad" % worst)
	for case in cases:
		for key in ["skeleton", "target", "ik", "player"]:
			case[key].free()


## Runs `ticks` physics ticks of a node in UPDATE_PHYSICS mode whose target jumps back and forth every half second, and
## returns the largest per-tick rotation change of any bone, the total turning, and whether a limited bone ever left
## its limit.
func run_speed_limited(klass: String, speed: float, ticks: int, limit: Array, from_rest := false) -> Dictionary:
	var skeleton := make_chain([50.0, 40.0, 35.0, 30.0], [0.4, -0.9, 0.8, -0.5])
	var bones := bones_of(skeleton)
	var origin: Vector2 = skeleton.global_position
	var far := [origin + Vector2(-60, 90), origin + Vector2(80, -70)]
	var target := make_target(far[0])
	var tip := 1 if klass == "TwoBoneIk2D" else 3
	var ik: Node2D = make_ik(klass, skeleton, target, 3 if klass == "LookAt2D" else 0, tip, 1)
	var limited := 3 if klass == "LookAt2D" else 0
	if not limit.is_empty():
		ik.set_angle_limits(0, limit[0], limit[1])
	ik.max_angular_speed = speed
	ik.solve_from_rest = from_rest
	var driven: Array = [bones[3]] if klass == "LookAt2D" else bones.slice(0, tip + 1)
	await get_tree().physics_frame
	var last := rotations_of(driven)
	var worst := 0.0
	var left_limit := false
	var total := 0.0
	# The target jumps every half second of simulated time, whatever the rate.
	var jump_every: int = maxi(1, Engine.physics_ticks_per_second / 2)
	for t in ticks:
		if t % jump_every == 0:
			target.global_position = far[(t / jump_every) % 2]
		await get_tree().physics_frame
		var now := rotations_of(driven)
		for i in now.size():
			var change := absf(angle_difference(last[i], now[i]))
			worst = maxf(worst, change)
			total += change
		if not limit.is_empty():
			var r: float = wrapf(bones[limited].rotation, -PI, PI)
			left_limit = left_limit or r < limit[0] - 1e-4 or r > limit[1] + 1e-4
		last = now
	for node in [skeleton, target, ik]:
		node.free()
	return {"worst": worst, "left_limit": left_limit, "total": total}


func test_speed_limit_across_physics_rates() -> void:
	var rate_before := Engine.physics_ticks_per_second
	var speed := 3.0
	var moved_per_second := {}
	for rate: int in [30, 120]:
		Engine.physics_ticks_per_second = rate
		var step: float = speed / rate
		for klass in CLASSES:
			for from_rest in [false, true]:
				# Ticks for 1.5 simulated seconds at each rate. From rest, each tick's solve is the same for the same
				# target, so the limited motion is a function of time alone: the same at both rates.
				var run: Dictionary = await run_speed_limited(klass, speed, int(1.5 * rate), [], from_rest)
				var label := "%s at %d Hz (solve_from_rest %s)" % [klass, rate, from_rest]
				expect(run["worst"] <= step + 1e-4, "%s: per-tick change %s <= max_angular_speed * delta = %s" % [label, run["worst"], step])
				expect(run["worst"] > 0.5 * step, "%s: the bones moved at the limit (%s per tick)" % [label, run["worst"]])
				if from_rest:
					moved_per_second["%s %d" % [klass, rate]] = run["total"] / 1.5
				print("%s, max_angular_speed %.1f rad/s: largest per-tick change %.5f rad (limit %.5f), turned %.3f rad/s in all" % [label, speed, run["worst"], step, run["total"] / 1.5])
	for klass in CLASSES:
		var slow: float = moved_per_second["%s 30" % klass]
		var fast: float = moved_per_second["%s 120" % klass]
		expect(absf(slow - fast) <= 0.05 * maxf(slow, fast), "%s from rest: the same turning per second at 30 and 120 Hz (%s vs %s rad/s)" % [klass, slow, fast])
		print("%s from rest: turned %.3f rad/s at 30 Hz, %.3f rad/s at 120 Hz" % [klass, slow, fast])
	Engine.physics_ticks_per_second = rate_before


func test_speed_limit_keeps_angle_limits() -> void:
	var rate_before := Engine.physics_ticks_per_second
	Engine.physics_ticks_per_second = 60
	for klass in CLASSES:
		# A limit the target's jump would cross the short way round: the bone must go the long way inside it.
		var run: Dictionary = await run_speed_limited(klass, 4.0, 80, [-2.0, 2.9])
		expect(not run["left_limit"], "%s: the limited bone never left its angle limit" % klass)
		expect(run["worst"] <= 4.0 / 60.0 + 1e-4, "%s: per-tick change %s within the speed limit" % [klass, run["worst"]])
	Engine.physics_ticks_per_second = rate_before


func set_owner_recursive(node: Node, owner_node: Node) -> void:
	for child in node.get_children():
		child.owner = owner_node
		set_owner_recursive(child, owner_node)


func test_stretch_reaches_far_targets_and_leaves_nothing_behind() -> void:
	for setup in ["none", "skeleton_x", "ancestor_x_rotated", "bone_x", "skeleton_x_scaled_rotated"]:
		var case := make_mirror_case(setup)
		var bones: Array = case["bones"]
		var authored: Vector2 = bones[1].position
		var root: Vector2 = bones[0].global_position
		# Global lengths (the scaled setup scales them): upper 50 and lower 40 times the skeleton's scale.
		var scale: float = absf(case["skeleton"].global_transform.get_scale().x) * absf(case["character"].scale.x)
		var upper := 50.0 * scale
		var lower := 40.0 * scale
		var target := make_target(root)
		var ik: Node2D = make_ik("TwoBoneIk2D", case["skeleton"], target, 0, 1)
		ik.stretch = 0.5
		var label := "stretch %s" % setup
		var direction := Vector2(0.6, -0.8)
		# Beyond reach (upper + lower) but within the stretched reach (1.5 upper + lower): reached, straight.
		target.global_position = root + direction * (upper * 1.4 + lower)
		ik.solve()
		expect(ik.last_error < 1e-2, "%s: a target beyond reach is reached (%s px)" % [label, ik.last_error])
		expect_near(bone_end(bones[1]).distance_to(target.global_position), ik.last_error, 1e-3, "%s: last_error is the real distance" % label)
		expect_vec_near(bones[1].position, authored * 1.4, 1e-3, "%s: the tip bone's position slid along the upper bone" % label)
		# Beyond the stretched reach: straight toward it, stretched as far as allowed.
		target.global_position = root + direction * (upper * 1.5 + lower + 15.0)
		ik.solve()
		expect_near(ik.last_error, 15.0, 1e-2, "%s: beyond the stretched reach the error is what is left" % label)
		# Turning it off puts the authored position back at once.
		ik.stretch = 0.0
		expect_vec_near(bones[1].position, authored, 1e-5, "%s: stretch 0 restores the tip bone's position" % label)
		# Compress: a closer target is reached with a straight, shorter limb.
		ik.compress = 0.5
		target.global_position = root + direction * (upper * 0.7 + lower)
		ik.solve()
		expect(ik.last_error < 1e-2, "%s: compress reaches a closer target (%s px)" % [label, ik.last_error])
		expect_vec_near(bones[1].position, authored * 0.7, 1e-3, "%s: compress shortened the upper bone" % label)
		var bend: float = (bones[1].global_position - root).cross(target.global_position - root)
		expect(absf(bend) < 1e-2 * upper * upper, "%s: the compressed limb is straight (cross %s)" % [label, bend])
		ik.compress = 0.0
		expect_vec_near(bones[1].position, authored, 1e-5, "%s: compress 0 restores the tip bone's position" % label)
		for node in [case["character"], target, ik]:
			node.free()


func test_stretch_is_undone_when_disabled_removed_or_saved() -> void:
	var case := make_mirror_case("skeleton_x")
	var bones: Array = case["bones"]
	var authored: Vector2 = bones[1].position
	var root: Vector2 = bones[0].global_position
	var target := make_target(root + Vector2(0, 110))
	var ik: Node2D = make_ik("TwoBoneIk2D", case["skeleton"], target, 0, 1)
	ik.stretch = 0.5
	ik.solve()
	expect(bones[1].position.distance_to(authored) > 1.0, "the limb stretched")
	# Disabled: the next frame puts the authored position back.
	ik.enabled = false
	await get_tree().process_frame
	expect_vec_near(bones[1].position, authored, 1e-5, "disabled: the tip bone's position is restored")
	ik.enabled = true
	# Saved (the editor's path: EDITOR_PRE_SAVE, pack, EDITOR_POST_SAVE): the packed scene holds the authored
	# position, and the stretch comes back after.
	ik.solve()
	var stretched: Vector2 = bones[1].position
	expect(stretched.distance_to(authored) > 1.0, "stretched again")
	set_owner_recursive(case["character"], case["character"])
	ik.notification(NOTIFICATION_EDITOR_PRE_SAVE)
	var packed := PackedScene.new()
	expect(packed.pack(case["character"]) == OK, "the scene packs")
	ik.notification(NOTIFICATION_EDITOR_POST_SAVE)
	var loaded: Node = packed.instantiate()
	var saved_tip: Bone2D = loaded.get_node("Skeleton/bone_0/bone_1")
	expect_vec_near(saved_tip.position, authored, 1e-5, "saved: the packed scene holds the authored position, not the stretched one")
	loaded.free()
	expect_vec_near(bones[1].position, stretched, 1e-5, "after saving the stretch is back")
	# Removed from the tree: the authored position comes back.
	ik.get_parent().remove_child(ik)
	expect_vec_near(bones[1].position, authored, 1e-5, "removed: the tip bone's position is restored")
	ik.free()
	for node in [case["character"], target]:
		node.free()


func test_speed_limit_goes_the_long_way_round_inside_a_limit() -> void:
	var rate_before := Engine.physics_ticks_per_second
	Engine.physics_ticks_per_second = 60
	for setup in ["none", "skeleton_x"]:
		var skeleton := make_chain([40.0], [], Vector2(-1, 1) if setup == "skeleton_x" else Vector2.ONE)
		var bone: Bone2D = bones_of(skeleton)[0]
		var frame: Transform2D = skeleton.global_transform
		# Targets at local angles 2.8 and -2.8: the short way between them crosses PI, which the limit excludes.
		var target := make_target(frame * (Vector2.from_angle(2.8) * 100.0))
		var ik: Node2D = make_ik("LookAt2D", skeleton, target, 0, -1, 1)
		ik.set_angle_limits(0, -2.9, 2.9)
		ik.max_angular_speed = 3.0
		for t in 120:
			await get_tree().physics_frame
		expect_near(bone.rotation, 2.8, 1e-3, "%s: the bone reached the first target" % setup)
		target.global_position = frame * (Vector2.from_angle(-2.8) * 100.0)
		var last := bone.rotation
		var nearest_zero := INF
		var outside := false
		var worst := 0.0
		for t in 150:
			await get_tree().physics_frame
			var r := wrapf(bone.rotation, -PI, PI)
			outside = outside or absf(r) > 2.9 + 1e-4
			nearest_zero = minf(nearest_zero, absf(r))
			worst = maxf(worst, absf(angle_difference(last, bone.rotation)))
			last = bone.rotation
		expect(not outside, "%s: the bone never crossed the excluded side" % setup)
		expect(nearest_zero < 0.1, "%s: it went the long way round, through 0 (nearest %s)" % [setup, nearest_zero])
		expect(worst <= 3.0 / 60.0 + 1e-4, "%s: per-tick change %s within the speed limit" % [setup, worst])
		expect_near(wrapf(bone.rotation, -PI, PI), -2.8, 1e-3, "%s: the bone reached the second target" % setup)
		for node in [skeleton, target, ik]:
			node.free()
	Engine.physics_ticks_per_second = rate_before


## Direct setter calls (not only `set()`, which the bad-input matrix covers) refuse bad values with one error each.
func test_setters_refuse_bad_values() -> void:
	var cases := {
		"max_angular_speed": [2.0, [-1.0, NAN, INF]],
		"target_rotation_weight": [0.5, [-0.1, 1.5, NAN]],
		"stretch": [0.3, [-0.5, NAN, INF]],
		"compress": [0.4, [-0.1, 1.0, NAN]],
	}
	for klass in CLASSES:
		var skeleton := make_chain([40.0, 30.0])
		var target := make_target(Vector2(450, 350))
		var ik: Node2D = make_ik(klass, skeleton, target, 0, 1)
		for property in cases:
			if not property in ik:
				continue
			var good: float = cases[property][0]
			ik.call("set_" + property, good)
			for bad in cases[property][1]:
				error_log.take()
				ik.call("set_" + property, bad)
				var messages := error_log.take()
				expect(is_equal_approx(ik.get(property), good), "%s.set_%s(%s) kept %s (now %s)" % [klass, property, bad, good, ik.get(property)])
				expect(messages.size() == 1, "%s.set_%s(%s): one error (%d)" % [klass, property, bad, messages.size()])
		for node in [skeleton, target, ik]:
			node.free()


func test_stretch_lets_a_two_bone_tip_rotation_reach() -> void:
	for setup in ["none", "skeleton_x", "bone_x"]:
		var case := make_mirror_case(setup)
		var bones: Array = case["bones"]
		var authored: Vector2 = bones[1].position
		# The target pose: the upper bone 1.2 times as long, at rotations the plain solve would not pick.
		bones[1].position = authored * 1.2
		var wanted: Array = pose_of(bones, [0.3, 0.9], 1)
		bones[1].position = authored
		var target := make_target(wanted[0])
		target.global_rotation = wanted[1]
		var ik: Node2D = make_ik("TwoBoneIk2D", case["skeleton"], target, 0, 1)
		ik.match_target_rotation = true
		ik.solve()
		var unstretched_error: float = ik.last_error
		ik.stretch = 0.5
		ik.solve()
		var label := "tip rotation with stretch %s" % setup
		expect(unstretched_error > 1.0, "%s: without stretch the limb cannot reach at that angle (%s px)" % [label, unstretched_error])
		expect(ik.last_error < 1e-2, "%s: with stretch it reaches (%s px)" % [label, ik.last_error])
		expect(tip_direction_error(bones[1], target) < 1e-3, "%s: at the target's rotation (off by %s rad)" % [label, tip_direction_error(bones[1], target)])
		expect_vec_near(bones[1].position, authored * 1.2, 1e-2, "%s: the upper bone took the length it needs" % label)
		for node in [case["character"], target, ik]:
			node.free()

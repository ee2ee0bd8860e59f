extends "res://lib/test_case.gd"
## Ragdoll2D (issue 40) in motion, one physics tick at a time: a running character falls with its momentum; an active
## ragdoll hit with strength 1 recovers its animated pose, with strength 0 it falls; blending in (start) and out
## (stop with a time) moves no joint further in a tick than the animation and the blend themselves.

const Ragdolls := preload("res://lib/ragdolls.gd")


func ticks(n: int) -> void:
	for i in n:
		await get_tree().physics_frame


## The ragdoll's bones' rotations against `rest` (radians), the worst bone.
func worst_rotation_gap(bones: Array, rest: PackedFloat32Array) -> float:
	return largest_rotation_difference(rotations_of(bones), rest)


func test_a_running_character_falls_with_its_momentum() -> void:
	var mover := Node2D.new()
	mover.position = Vector2(100, 300)
	add_child(mover)
	var figure := Ragdolls.figure(mover, Vector2.ZERO)
	var bones: Array = figure["bones"]
	var ragdoll := Ragdolls.ragdoll(self, figure)
	var xs := PackedFloat32Array()
	var started := -1
	for tick in 40:
		await ticks(1)
		xs.append(bones[0].global_position.x)
		if tick < 30:
			mover.position.x += 200.0 / 60.0
		elif tick == 30:
			mover.position.x += 200.0 / 60.0
			ragdoll.start()
			started = xs.size()
	# xs[started] is the tick start() was called in (its pose written that tick is read one tick later).
	var before := (xs[started - 1] - xs[started - 2]) * 60.0
	var first := (xs[started + 1] - xs[started]) * 60.0
	var second := (xs[started + 2] - xs[started + 1]) * 60.0
	expect_near(before, 200.0, 1.0, "the animation runs at 200 px/s")
	expect(first >= 180.0, "the first tick of the fall keeps at least 90%% of 200 px/s: %.2f px/s" % first)
	expect(second >= 180.0, "so does the second: %.2f px/s" % second)
	var step := (xs[started] - xs[started - 1]) * 60.0
	expect(step >= 180.0 and step <= 220.0, "no stall or jump where the physics takes over: %.2f px/s" % step)
	print("ragdoll momentum: running %.2f px/s, handover %.2f, first tick of the fall %.2f, second %.2f px/s" % [before, step, first, second])


## A figure in the air, its ragdoll running with `strength`, hit in the chest; returns the bones' worst rotation gap
## to their animated pose after each tick, and the hips' drop.
func hit(strength: float) -> Dictionary:
	var figure := Ragdolls.figure(self, Vector2(300, 200))
	var bones: Array = figure["bones"]
	var rest := rotations_of(bones)
	var hips_before: Vector2 = bones[0].global_position
	var ragdoll := Ragdolls.ragdoll(self, figure)
	ragdoll.strength = strength
	await ticks(3)
	ragdoll.start()
	await ticks(5)
	var chest: Bone2D = bones[2]
	ragdoll.apply_impulse(chest, Vector2(60, 0), chest.global_position)
	var gaps := PackedFloat32Array()
	for tick in 60:
		await ticks(1)
		gaps.append(worst_rotation_gap(bones, rest))
	var drop: float = bones[0].global_position.y - hips_before.y
	expect(all_finite(bones), "finite after the hit")
	ragdoll.free()
	free_case(figure, ["skeleton"])
	return {"gaps": gaps, "drop": drop}


func test_a_hit_character_recovers_with_strength_1_and_falls_with_0() -> void:
	var strong := await hit(1.0)
	var gaps: PackedFloat32Array = strong["gaps"]
	var largest := 0.0
	for g in gaps:
		largest = maxf(largest, g)
	expect(largest > 0.05, "the hit shows: the worst joint turns %.3f rad" % largest)
	expect(gaps[gaps.size() - 1] < 0.1, "strength 1: back within 0.1 rad of the animated pose after 1 s: %.4f rad" % gaps[gaps.size() - 1])
	expect(absf(strong["drop"]) < 5.0, "strength 1: the hips stay up: %.2f px" % strong["drop"])
	var limp := await hit(0.0)
	expect(limp["drop"] > 100.0, "strength 0: it falls: hips %.1f px lower after 1 s" % limp["drop"])
	print("ragdoll hit: strength 1 worst gap %.3f rad, %.4f rad after 1 s, hips %.2f px; strength 0 hips fell %.1f px" % [largest, gaps[gaps.size() - 1], strong["drop"], limp["drop"]])


func test_blending_in_and_out_moves_no_joint_more_than_the_motion() -> void:
	var figure := Ragdolls.figure(self, Vector2(300, 250))
	var bones: Array = figure["bones"]
	var rest := rotations_of(bones)
	var ragdoll := Ragdolls.ragdoll(self, figure)
	var swing := func(t: int) -> PackedFloat32Array:
		var pose := rest.duplicate()
		pose[4] = rest[4] + 0.6 * sin(t * 0.15)
		pose[6] = rest[6] - 0.6 * sin(t * 0.15)
		pose[1] = rest[1] + 0.2 * sin(t * 0.1)
		return pose
	var animated := []
	var written := []
	var start_tick := 20
	var stop_tick := 80
	var blend_ticks := 30
	for t in 130:
		await ticks(1)
		written.append(rotations_of(bones))
		# The animation poses the bones before the ragdoll's tick (an AnimationPlayer in physics mode would).
		var pose: PackedFloat32Array = swing.call(t)
		animated.append(pose)
		for i in bones.size():
			bones[i].rotation = pose[i]
		if t == start_tick:
			ragdoll.start()
		elif t == stop_tick:
			ragdoll.stop(blend_ticks / 60.0)
	# Tick t's reading shows what the ragdoll wrote in tick t - 1, posed as animated[t - 1].
	var worst_in := 0.0
	var bound_in := 0.0
	for t in range(start_tick - 3, start_tick + 4):
		bound_in = maxf(bound_in, largest_rotation_difference(animated[t], animated[t - 1]))
	for t in range(start_tick + 1, start_tick + 4):
		worst_in = maxf(worst_in, largest_rotation_difference(written[t + 1], written[t]))
	expect(worst_in <= bound_in + 0.02, "blending in: %.4f rad in a tick, the animation moves %.4f" % [worst_in, bound_in])
	# Out: from the frozen physics pose to the animation, linearly over blend_ticks.
	var frozen: PackedFloat32Array = written[stop_tick]
	var worst_excess := 0.0
	for t in range(stop_tick + 1, stop_tick + blend_ticks + 3):
		for i in bones.size():
			var moved := absf(angle_difference(written[t][i], written[t + 1][i]))
			var animation := absf(angle_difference(animated[t - 1][i], animated[t][i]))
			var gap := maxf(absf(angle_difference(frozen[i], animated[t - 1][i])), absf(angle_difference(frozen[i], animated[t][i])))
			worst_excess = maxf(worst_excess, moved - (animation + gap / blend_ticks))
	expect(worst_excess <= 1e-3, "blending out: no joint moves more than the animation plus its share of the gap (%.5f rad over)" % worst_excess)
	var last := written.size() - 1
	expect(largest_rotation_difference(written[last], animated[last - 1]) < 1e-6, "after the blend the bones are the animation's")
	expect(not ragdoll.is_running(), "not running after the blend")
	print("ragdoll blend: in %.4f rad/tick (animation %.4f); out at most %.5f rad over the animation plus the blend" % [worst_in, bound_in, worst_excess])


func test_a_branch_hangs_from_its_animated_parent_bone() -> void:
	var figure := Ragdolls.figure(self, Vector2(300, 300))
	var bones: Array = figure["bones"]
	var arm: Array = [bones[4], bones[5]]
	var ragdoll: Node2D = ClassDB.instantiate("Ragdoll2D")
	add_child(ragdoll)
	ragdoll.root_bone = arm[0]
	ragdoll.set_angle_limits(1, -2.4, 0.05)
	expect(ragdoll.get_bone_count() == 2, "the branch: the upper arm and the forearm (%d)" % ragdoll.get_bone_count())
	await ticks(2)
	var shoulder_local: Vector2 = arm[0].position
	var chest: Bone2D = bones[2]
	ragdoll.start()
	var worst_attach := 0.0
	var worst_limit := 0.0
	var turned := 0.0
	var rest: float = arm[0].rotation
	for tick in 90:
		# The animation swings the chest; the arm hangs from it.
		chest.rotation = 0.4 * sin(tick * 0.1)
		await ticks(1)
		worst_attach = maxf(worst_attach, arm[0].position.distance_to(shoulder_local))
		var r := wrapf(arm[1].rotation, -PI, PI)
		worst_limit = maxf(worst_limit, maxf(-2.4 - r, r - 0.05))
		turned = maxf(turned, absf(angle_difference(rest, arm[0].rotation)))
	expect(all_finite(bones), "finite")
	expect(worst_attach == 0.0, "the branch's root keeps its place on the chest (its position is never written): %.4f px" % worst_attach)
	expect(turned > 0.1, "the arm swings by itself: %.3f rad" % turned)
	expect(worst_limit <= 0.05, "the elbow stays within its limit (±0.05 rad): %.4f rad" % worst_limit)
	print("ragdoll branch: the arm turned %.3f rad, elbow past its limit %.4f rad" % [turned, worst_limit])


func test_a_character_weight_multiplies_the_weight() -> void:
	# A: the ragdoll's own weight 0.5. B: weight 1 under a CharacterWeight2D of 0.5. Both fall alike.
	var holders := [Node2D.new(), Node2D.new()]
	for h in holders:
		add_child(h)
	var a := Ragdolls.figure(holders[0], Vector2(200, 200))
	var b := Ragdolls.figure(holders[1], Vector2(600, 200))
	var ra := Ragdolls.ragdoll(holders[0], a)
	ra.weight = 0.5
	var blend: Node2D = ClassDB.instantiate("CharacterWeight2D")
	holders[1].add_child(blend)
	blend.weight = 0.5
	var rb := Ragdolls.ragdoll(holders[1], b)
	await ticks(3)
	ra.start()
	rb.start()
	var worst := 0.0
	var start: float = a["bones"][0].global_position.y
	for tick in 40:
		await ticks(1)
		var pa := Ragdolls.points_of(a["bones"])
		for i in pa.size():
			pa[i] += Vector2(400, 0)
		worst = maxf(worst, largest_distance(pa, Ragdolls.points_of(b["bones"])))
	var moved: float = a["bones"][0].global_position.y - start
	# Half of a 40-tick fall (about 216 px at 980 px/s², less the damping).
	expect(moved > 50.0 and moved < 150.0, "the half-weighted fall moves the hips half as far: %.2f px" % moved)
	expect(worst < 1e-2, "weight 1 under a CharacterWeight2D of 0.5 writes what weight 0.5 writes: %.5f px apart" % worst)
	print("ragdoll character weight: %.5f px apart (the hips moved %.2f px)" % [worst, moved])


func test_a_teleported_character_falls_without_the_jump_as_speed() -> void:
	var mover := Node2D.new()
	mover.position = Vector2(100, 200)
	add_child(mover)
	var figure := Ragdolls.figure(mover, Vector2.ZERO)
	var bones: Array = figure["bones"]
	var ragdoll := Ragdolls.ragdoll(self, figure)
	await ticks(3)
	mover.position.x += 3000.0
	ragdoll.start()
	await ticks(2)
	var x0: float = bones[0].global_position.x
	await ticks(1)
	var speed: float = absf(bones[0].global_position.x - x0) * 60.0
	expect(absf(x0 - 3100.0) < 1.0, "the fall starts where the character was put: x %.2f" % x0)
	expect(speed < 10.0, "a teleport is no velocity: %.3f px/s across" % speed)


func test_start_stop_and_start_again() -> void:
	make_box(Vector2(300, 700), Vector2(1200, 200))
	var figure := Ragdolls.figure(self, Vector2(300, 400))
	var bones: Array = figure["bones"]
	var rest := rotations_of(bones)
	var ragdoll := Ragdolls.ragdoll(self, figure)
	await ticks(3)
	ragdoll.start()
	await ticks(40)
	var fallen: Vector2 = bones[0].global_position
	expect(fallen.y > 450.0, "the first fall: hips at %s" % fallen)
	ragdoll.stop(0.0)
	await ticks(2)
	expect(not ragdoll.is_running(), "stopped")
	expect(bones[0].global_position.distance_to(Vector2(300, 400)) < 1e-3, "back to the animated pose at once: %s" % bones[0].global_position)
	expect(largest_rotation_difference(rotations_of(bones), rest) < 1e-6, "the animated rotations back")
	ragdoll.start()
	await ticks(40)
	expect(ragdoll.is_running() and all_finite(bones), "running again, finite")
	expect(bones[0].global_position.y > 450.0, "the second fall: hips at %s" % bones[0].global_position)
	ragdoll.rebuild()
	await ticks(3)
	expect(not ragdoll.is_running() and all_finite(bones), "rebuilt: animated again, finite")
	expect(bones[0].global_position.distance_to(Vector2(300, 400)) < 1e-3, "rebuild puts the animated pose back")

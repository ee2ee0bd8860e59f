extends "res://lib/test_case.gd"
## LegStepper2D (issue 33) on hard ground and bad input: a wall it must not step into, a slope too steep to stand
## on, a gap, walls and ceilings only when asked (stick_to_walls), a body faster than the gait (the catch-up rule),
## and every setup problem reported once with no NaN in any bone; no allocation per frame.

const DT := 1.0 / 60.0
const DROP: float = Characters.STEPPER_FOOT_DROP
const GROUND_Y := 400.0


## A creature standing on a flat floor at GROUND_Y at x, and the floor (layer 1).
func make_on_floor(x: float, legs := Characters.six_legs(), facing := 1.0) -> Dictionary:
	make_box(Vector2(x, GROUND_Y + 50.0), Vector2(4000, 100))
	return Characters.stepping_creature(self, Vector2(x, GROUND_Y - DROP), facing, legs)


func step(case: Dictionary, dx := 0.0, frames := 1) -> void:
	for i in frames:
		case["creature"].position.x += dx
		case["stepper"].advance(DT)


## What the stepper and its legs write finite in every bone of every leg and the body: local rotation and position.
func bones_finite(case: Dictionary) -> bool:
	var bones: Array = [case["body"]]
	for leg: Array in case["bones"]:
		bones.append_array(leg)
	for b: Bone2D in bones:
		if not (is_finite(b.rotation) and b.position.is_finite()):
			return false
	return true


func test_a_foot_never_lands_inside_a_wall() -> void:
	var case := make_on_floor(300.0)
	# A wall 100 px tall whose face is 40 px ahead of the front foot's home.
	make_box(Vector2(460.0 + 20.0, GROUND_Y - 50.0), Vector2(40, 100))
	await settle_physics()
	var stepper: Node2D = case["stepper"]
	var inside := 0
	var worst := -INF
	# The body walks up to the wall and stops 8 px short of the front foot's home touching it; the feet's aims lie
	# beyond the wall's face.
	for frame in 300:
		if case["creature"].position.x + 60.0 < 452.0:
			case["creature"].position.x += 150.0 * DT
		stepper.advance(DT)
		for i in case["legs"].size():
			var goal: Vector2 = stepper.get_foot_goal(i)
			worst = maxf(worst, goal.x)
			if goal.x > 460.0 and goal.y > GROUND_Y - 100.0:
				inside += 1
	expect(inside == 0, "no foot goal inside the wall (%d foot-frames; furthest x %.2f, face at 460)" % [inside, worst])
	expect(worst > 440.0, "the front foot stepped up to the wall (furthest x %.2f)" % worst)
	expect(bones_finite(case), "finite")
	free_case(case, ["creature"])


func test_a_surface_steeper_than_max_slope_is_no_ground_unless_allowed() -> void:
	# A ramp at 70 degrees from level under the creature's front foot (its home at x 360), the floor under the others.
	var case := make_on_floor(300.0)
	var ramp := StaticBody2D.new()
	var shape := CollisionPolygon2D.new()
	shape.polygon = PackedVector2Array([Vector2(340, GROUND_Y), Vector2(380, GROUND_Y), Vector2(380, GROUND_Y - 40.0 * tan(deg_to_rad(70.0)))])
	ramp.add_child(shape)
	add_child(ramp)
	await settle_physics()
	var stepper: Node2D = case["stepper"]
	stepper.ray_above = 120.0
	stepper.reset()
	step(case)
	var front: int = case["legs"].size() - 1
	var home: Vector2 = stepper.get_home(front)
	expect(not stepper.is_foot_planted(front), "the front foot does not stand on a 70 degree slope (max_slope 50)")
	expect_vec_near(stepper.get_foot_goal(front), home, 1e-3, "it hangs at its home")
	stepper.max_slope = PI
	stepper.reset()
	step(case)
	expect(stepper.is_foot_planted(front), "with max_slope = PI it stands on it")
	expect_near(stepper.get_foot_goal(front).y, GROUND_Y - 20.0 * tan(deg_to_rad(70.0)), 1e-2, "on the ramp's face")
	free_case(case, ["creature"])


func test_walls_and_ceilings_only_when_asked() -> void:
	# The creature turned a quarter to the right, its feet toward a wall on its right (its own down is +x).
	make_box(Vector2(500.0 + 50.0, 300.0), Vector2(100, 2000))
	# Its feet 2 px from the wall's face: gravity's rays pass along it without touching.
	var case := Characters.stepping_creature(self, Vector2(498.0 - DROP, 300.0), 1.0)
	case["creature"].rotation = -PI / 2
	await settle_physics()
	var stepper: Node2D = case["stepper"]
	stepper.max_slope = PI
	step(case)
	for i in case["legs"].size():
		expect(not stepper.is_foot_planted(i), "gravity's rays find no ground under a creature on a wall (leg %d)" % i)
	stepper.stick_to_walls = true
	stepper.reset()
	step(case)
	for i in case["legs"].size():
		expect(stepper.is_foot_planted(i), "with stick_to_walls the feet stand on the wall (leg %d)" % i)
		expect_near(stepper.get_foot_goal(i).x, 500.0, 1e-3, "foot %d on the wall's face" % i)
	# Walking along the wall (down the screen), the feet lift away from it, toward the creature's own up.
	var away := 0.0
	for frame in 120:
		case["creature"].position.y += 90.0 * DT
		stepper.advance(DT)
		for i in case["legs"].size():
			away = maxf(away, 500.0 - stepper.get_foot_goal(i).x)
	expect(away > 5.0 and away < 40.0, "the swings lift off the wall by up to about step_height (%.2f px)" % away)
	free_case(case, ["creature"])


func test_a_foot_over_a_gap_hangs_at_its_home_and_steps_down_after() -> void:
	make_box(Vector2(200.0, GROUND_Y + 50.0), Vector2(400, 100))
	make_box(Vector2(700.0, GROUND_Y + 50.0), Vector2(400, 100))
	var case := Characters.stepping_creature(self, Vector2(300.0, GROUND_Y - DROP))
	await settle_physics()
	var stepper: Node2D = case["stepper"]
	var hung := 0
	for frame in 300:
		step(case, 80.0 * DT)
		for i in case["legs"].size():
			if not stepper.is_foot_planted(i) and not stepper.is_foot_stepping(i):
				hung += 1
				expect_vec_near(stepper.get_foot_goal(i), stepper.get_home(i), 1e-3, "a hanging foot is at its home")
	step(case, 0.0, 60)
	expect(hung > 30, "feet hung over the gap (%d foot-frames)" % hung)
	for i in case["legs"].size():
		expect(stepper.is_foot_planted(i), "foot %d stands again after the gap" % i)
	expect(bones_finite(case), "finite")
	free_case(case, ["creature"])


func test_a_body_faster_than_the_gait_catches_up_and_drags_no_foot_beyond_max_lag() -> void:
	var case := make_on_floor(0.0, Characters.eight_legs())
	await settle_physics()
	var stepper: Node2D = case["stepper"]
	stepper.step_distance = 24.0
	stepper.step_duration = 0.3
	stepper.max_lag = 40.0
	var speed := 260.0
	var worst := 0.0
	var most := 0
	for frame in 300:
		step(case, speed * DT)
		most = maxi(most, stepper.get_feet_in_air())
		for i in case["legs"].size():
			if stepper.is_foot_planted(i):
				worst = maxf(worst, absf(stepper.get_home(i).x - stepper.get_foot_goal(i).x))
	expect(stepper.get_catch_up_count() > 0, "feet caught up (%d)" % stepper.get_catch_up_count())
	expect(worst <= 40.0 + speed * DT + 1e-3, "no planted foot more than max_lag plus a frame from home (%.2f px)" % worst)
	print("MEASURED catch-up, 8 legs at 260 px/s with 0.3 s steps: %d catch-ups in 300 frames, most feet in air %d, worst planted drift %.2f px (max_lag 40)" % [stepper.get_catch_up_count(), most, worst])
	free_case(case, ["creature"])


func test_setup_problems_are_reported_once_and_no_bone_gets_a_nan() -> void:
	var case := make_on_floor(300.0)
	await settle_physics()
	var stepper: Node2D = case["stepper"]
	step(case, 1.0, 10)
	var legs: Array = case["legs"]
	var cases := [
		["no legs", func() -> void: stepper.legs = [], "No legs"],
		["not a leg", func() -> void: stepper.legs = [legs[0], case["body"]], "legs[1]"],
		["named twice", func() -> void: stepper.legs = [legs[0], legs[0]], "legs[1]"],
		["body above the stepper", func() -> void: stepper.body = case["creature"], "`body`"],
		["NaN position", func() -> void: case["creature"].position = Vector2(NAN, 0), "NaN"],
		["zero scale", func() -> void: case["creature"].scale = Vector2.ZERO, "zero scale"],
	]
	for c in cases:
		var before := error_log.messages.size()
		c[1].call()
		for i in 20:
			stepper.advance(DT)
		var printed := error_log.messages.size() - before
		expect(printed == 1, "%s: one message, got %d (%s)" % [c[0], printed, error_log.messages.slice(before)])
		expect(c[2] in stepper.get_setup_warning() or c[0] in ["NaN position", "zero scale"], "%s: the warning says so (%s)" % [c[0], stepper.get_setup_warning()])
		expect(bones_finite(case), "%s: no NaN in a bone" % c[0])
		# Back to a good setup.
		case["creature"].position = Vector2(300.0, GROUND_Y - DROP)
		case["creature"].scale = Vector2.ONE
		stepper.body = case["body"]
		stepper.legs = legs
		# 61 good frames: a problem that comes back after 60 is reported again (as every node's).
		for i in 61:
			stepper.advance(DT)
		expect(stepper.get_setup_warning() == "", "%s: fixed, no warning (%s)" % [c[0], stepper.get_setup_warning()])
	var before := error_log.messages.size()
	for i in 5:
		expect(not stepper.advance(NAN), "advance(NAN) refused")
		expect(not stepper.advance(-1.0), "advance(-1) refused")
	expect(error_log.messages.size() - before == 1, "one message for repeated bad advance()")
	before = error_log.messages.size()
	stepper.gait_groups = PackedInt32Array([0, 64])
	stepper.home_points = PackedVector2Array([Vector2(NAN, 0)])
	expect(error_log.messages.size() - before == 2, "a group outside 0..63 and a NaN home are refused, one message each")
	expect(stepper.gait_groups.is_empty() and stepper.home_points.is_empty(), "and the values are kept")
	free_case(case, ["creature"])


func test_a_freed_leg_stops_only_itself_and_is_reported_once() -> void:
	var case := make_on_floor(300.0)
	await settle_physics()
	var stepper: Node2D = case["stepper"]
	step(case, 1.5, 20)
	var before := error_log.messages.size()
	case["legs"][2].free()
	step(case, 1.5, 60)
	expect(error_log.messages.size() - before == 1, "one message for the freed leg (%s)" % [error_log.messages.slice(before)])
	expect("legs[2]" in stepper.get_setup_warning(), "the warning names it (%s)" % stepper.get_setup_warning())
	expect(bones_finite(case), "no NaN in a bone")
	var moved := 0.0
	var last: Vector2 = Rig.bone_end(case["bones"][0][-1])
	step(case, 1.5, 60)
	moved = Rig.bone_end(case["bones"][0][-1]).distance_to(last)
	expect(moved > 1.0, "the other legs still walk (%.2f px)" % moved)
	free_case(case, ["creature"])


func test_degenerate_rigs_give_no_nan() -> void:
	# Zero-length legs: every point of each leg the same.
	var flat := []
	for x in [-20.0, 20.0]:
		flat.append({"hip": Vector2(x, 0), "knee": Vector2(x, 0), "foot": Vector2(x, 0)})
	var zero := make_on_floor(200.0, flat)
	# A body sunk inside the ground: every ray starts in the floor.
	var sunk := Characters.stepping_creature(self, Vector2(600.0, GROUND_Y + 30.0))
	await settle_physics()
	for case in [zero, sunk]:
		step(case, 3.0, 60)
		expect(bones_finite(case), "no NaN in a bone")
		for i in case["legs"].size():
			expect(case["stepper"].get_foot_goal(i).is_finite(), "a finite goal")
	for i in sunk["legs"].size():
		expect(not sunk["stepper"].is_foot_planted(i), "a sunk creature finds no ground: its feet hang")
	free_case(zero, ["creature"])
	free_case(sunk, ["creature"])


func test_walking_allocates_nothing_per_frame() -> void:
	var case := make_on_floor(300.0, Characters.eight_legs())
	await settle_physics()
	var stepper: Node2D = case["stepper"]
	stepper.tilt_body = true
	var events := [0]
	stepper.foot_lifted.connect(func(_i: int) -> void: events[0] += 1)
	step(case, 1.5, 20)
	var baseline: int = ClassDB.class_call_static("Reach2DDebug", "node_heap_allocations")
	for frame in 120:
		step(case, 1.6)
		if frame == 60:
			case["creature"].scale.x = -1.0
		if frame == 90:
			case["creature"].position.x += 500.0
	var used: int = ClassDB.class_call_static("Reach2DDebug", "node_heap_allocations") - baseline
	expect(events[0] > 10, "it stepped (%d lifts)" % events[0])
	expect(stepper.get_teleport_count() == 1, "and teleported once (%d)" % stepper.get_teleport_count())
	expect(used == 0, "120 walking frames (a turn and a teleport among them, each telling every planted foot) made %d heap allocations in the nodes' code" % used)
	free_case(case, ["creature"])


## Issue 36: one bad entry in `legs` (not a leg, a leg named twice, an empty entry) beside six good legs, the
## stepper processing on its own, set at run time or there from the start: only that entry's message, once; the good
## legs it names keep their pose without a word (before: one "No target" message per good leg, as they fell back to
## solving on their own).
func test_one_bad_legs_entry_gives_one_message_not_one_per_good_leg() -> void:
	for start in [false, true]:
		for bad in ["not a leg", "named twice", "empty"]:
			var case := make_on_floor(300.0)
			await settle_physics()
			var stepper: Node2D = case["stepper"]
			var legs: Array = case["legs"]
			var entry: Variant = {"not a leg": case["body"], "named twice": legs[0], "empty": null}[bad]
			var named: Array[Node2D] = []
			named.assign(legs)
			named.append(entry)
			var before := error_log.messages.size()
			if start:
				# A stepper that enters the tree with the bad entry (a scene saved so).
				stepper.free()
				stepper = ClassDB.instantiate("LegStepper2D")
				stepper.legs = named
				stepper.body = case["body"]
				before = error_log.messages.size()
				case["creature"].add_child(stepper)
			else:
				stepper.update_mode = 0
				await wait_frames(10)
				before = error_log.messages.size()
				stepper.legs = named
			await wait_frames(30)
			var printed := error_log.messages.slice(before)
			var what := "%s, %s" % [bad, "from the start" if start else "at run time"]
			print("one bad legs entry (%s): %s" % [what, printed])
			expect(printed.size() == 1 and "legs[6]" in printed[0], "%s: one message naming legs[6], got %s" % [what, printed])
			expect("legs[6]" in stepper.get_setup_warning(), "%s: the warning names it (%s)" % [what, stepper.get_setup_warning()])
			expect(bones_finite(case), "%s: no NaN in a bone" % what)
			free_case(case, ["creature"])


## Issue 36: a leg named by two helpers (a second LegStepper2D, or a FootGrounder2D) was driven by both, silently.
## Now the one that named it second says so once, with a configuration warning, and leaves its legs alone; the
## first walks on. Clearing the second one's claim lets it go quietly.
func test_a_leg_named_by_two_helpers_is_reported_once_by_the_second() -> void:
	for second_class in ["LegStepper2D", "FootGrounder2D"]:
		var case := make_on_floor(300.0)
		await settle_physics()
		var stepper: Node2D = case["stepper"]
		var legs: Array = case["legs"]
		stepper.update_mode = 0
		await wait_frames(5)
		var second: Node2D = ClassDB.instantiate(second_class)
		var slot := "legs[0]" if second_class == "LegStepper2D" else "first_leg"
		if second_class == "LegStepper2D":
			second.legs = [legs[0]]
		else:
			second.first_leg = legs[0]
		var before := error_log.messages.size()
		case["creature"].add_child(second)
		var last: Vector2 = Rig.bone_end(case["bones"][1][-1])
		for i in 40:
			case["creature"].position.x += 1.5
			await get_tree().process_frame
		var printed := error_log.messages.slice(before)
		print("a leg named by %s and a LegStepper2D: %s" % [second_class, printed])
		expect(printed.size() == 1 and slot in printed[0] and "driven by another" in printed[0] and second_class in printed[0], "%s: one message from the second helper naming %s, got %s" % [second_class, slot, printed])
		expect("driven by another" in second.get_setup_warning(), "%s: its warning says so (%s)" % [second_class, second.get_setup_warning()])
		expect(stepper.get_setup_warning() == "", "the first stepper has no problem (%s)" % stepper.get_setup_warning())
		expect(Rig.bone_end(case["bones"][1][-1]).distance_to(last) > 1.0, "%s: the first stepper walks on" % second_class)
		expect(bones_finite(case), "%s: no NaN in a bone" % second_class)
		free_case(case, ["creature"])


## Issue 36: a stepper moved out from under its creature (reparented to a node above it, the legs left behind) walked
## on silently, placing homes from a node that no longer moves with the legs. Now: one message, and
## its warning says so, no NaN; put back, it walks again without a word.
func test_a_stepper_moved_away_from_its_legs_is_reported_once() -> void:
	var case := make_on_floor(300.0)
	await settle_physics()
	var stepper: Node2D = case["stepper"]
	stepper.update_mode = 0
	await wait_frames(5)
	var before := error_log.messages.size()
	stepper.reparent(self)
	for i in 40:
		case["creature"].position.x += 1.5
		await get_tree().process_frame
	var printed := error_log.messages.slice(before)
	print("a stepper moved away from its legs: %s" % [printed])
	expect(printed.size() == 1 and "moved out from under the creature" in printed[0], "one message saying so, got %s" % [printed])
	expect("moved out from under" in stepper.get_setup_warning(), "the warning says so (%s)" % stepper.get_setup_warning())
	expect(bones_finite(case), "no NaN in a bone")
	before = error_log.messages.size()
	stepper.reparent(case["creature"])
	var last: Vector2 = Rig.bone_end(case["bones"][1][-1])
	for i in 40:
		case["creature"].position.x += 1.5
		await get_tree().process_frame
	expect(error_log.messages.size() == before, "put back: no message (%s)" % [error_log.messages.slice(before)])
	expect(stepper.get_setup_warning() == "", "put back: no warning (%s)" % stepper.get_setup_warning())
	expect(Rig.bone_end(case["bones"][1][-1]).distance_to(last) > 1.0, "put back: it walks again")
	free_case(case, ["creature"])

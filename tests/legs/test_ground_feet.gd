extends "res://lib/test_case.gd"
## FootGrounder2D (issue 24, part 2): two TwoBoneIk2D legs (bone_angle != 0, knees bent, foot bones) under a hips
## bone, grounded on StaticBody2D floors, slopes and stairs in the scene's physics space. Proves with numbers: feet
## exactly at ground + foot_height on flat ground, on a slope and on a stair (the foot bone turned to the slope up
## to max_tilt), the hips lowered so the lower foot reaches, every speed limit held frame to frame (also when a ray
## crosses a stair's edge), the mirrored character on mirrored ground the mirror image, and bad input (no ground
## on the mask, a freed leg or foot, NaN settings, disabling) handled with one message and no NaN.

## The character's measures (Characters.LEG_MEASURES): thighs and shins of 40 px, feet of 14 px, soles 5 px under
## the ankles.
const FOOT: float = Characters.LEG_MEASURES["foot"]
const FOOT_HEIGHT: float = Characters.LEG_MEASURES["foot_height"]
const DT := 1.0 / 60.0


## A two-legged character (Characters.two_legged: hips bone, two legs with feet, their TwoBoneIk2D with no target) at
## `at` (scale.x = `facing`) and a FootGrounder2D on the animation's ground line (the soles' line), in manual mode,
## with no speed limits. Also returns where the ankles and the feet's angles are before any grounding.
func make_grounded_character(at: Vector2, facing := 1.0) -> Dictionary:
	var case := Characters.two_legged(self, at, facing, self)
	var grounder := Characters.foot_grounder(case)
	grounder.foot_speed = 0.0
	grounder.tilt_speed = 0.0
	grounder.hips_speed = 0.0
	var ankles: Array[Vector2] = []
	var foot_angles: Array[float] = []
	for i in 2:
		ankles.append(Rig.bone_end(case["shins"][i]))
		foot_angles.append(axis_angle(case["feet"][i]))
	case.merge({"grounder": grounder, "ankles": ankles, "foot_angles": foot_angles,
		"line_y": at.y + Characters.ankle_drop() + FOOT_HEIGHT})
	return case


## The global angle of a bone's x axis.
func axis_angle(bone: Node2D) -> float:
	return bone.global_transform.x.angle()


## A StaticBody2D box (layer 1) whose top edge's middle is at `top`, turned by `rotation`.
func make_box_under(top: Vector2, size: Vector2, rotation := 0.0) -> StaticBody2D:
	return make_box(top - Vector2(0, -1).rotated(rotation) * size.y * 0.5, size, rotation)


func advance(case: Dictionary, frames := 1) -> bool:
	var ok := true
	for i in frames:
		ok = case["grounder"].advance(DT) and ok
	return ok


## Every joint of both legs (hip, knee, ankle, toe), global.
func leg_points(case: Dictionary) -> PackedVector2Array:
	var points := PackedVector2Array()
	for i in 2:
		points.append(case["thighs"][i].global_position)
		points.append(case["shins"][i].global_position)
		points.append(Rig.bone_end(case["shins"][i]))
		points.append(Rig.bone_end(case["feet"][i]))
	return points


func all_points_finite(case: Dictionary) -> bool:
	for p in leg_points(case):
		if not p.is_finite():
			return false
	return case["hips"].global_position.is_finite()


func test_flat_ground_puts_the_feet_at_ground_plus_foot_height_and_lowers_the_hips() -> void:
	var case := make_grounded_character(Vector2(300, 200))
	var ground_y: float = case["line_y"] + 10.0
	make_box_under(Vector2(300, ground_y), Vector2(600, 100))
	await settle_physics()
	var hips_before: Vector2 = case["hips"].position
	expect(advance(case, 3), "the grounder solves both legs")
	var worst := 0.0
	for i in 2:
		var ankle := Rig.bone_end(case["shins"][i])
		worst = maxf(worst, ankle.distance_to(Vector2(case["ankles"][i].x, ground_y - FOOT_HEIGHT)))
		expect(case["grounder"].is_foot_grounded(i), "foot %d found the ground" % i)
		expect_near(axis_angle(case["feet"][i]), case["foot_angles"][i], 1e-4, "foot %d keeps its animated angle on flat ground" % i)
		expect(case["legs"][i].last_error < 1e-3, "leg %d reaches (%f px)" % [i, case["legs"][i].last_error])
	expect(worst < 1e-3, "on flat ground 10 px below the animation's, each ankle is at ground + foot_height (worst %.6f px)" % worst)
	expect_near(case["grounder"].get_hips_drop(), 10.0, 1e-4, "the hips come down by the 10 px the feet need")
	expect_near(case["hips"].position.y - hips_before.y, 10.0, 1e-4, "the hips' position carries the drop")
	print("flat ground: worst ankle %.6f px from ground + foot_height, hips drop %.4f px" % [worst, case["grounder"].get_hips_drop()])
	# Ground higher than the animation's: the feet go up, the hips never rise.
	var high := make_grounded_character(Vector2(800, 200))
	var high_y: float = high["line_y"] - 8.0
	make_box_under(Vector2(800, high_y), Vector2(300, 100))
	await settle_physics()
	expect(advance(high, 3), "the grounder solves both legs on higher ground")
	for i in 2:
		expect_vec_near(Rig.bone_end(high["shins"][i]), Vector2(high["ankles"][i].x, high_y - FOOT_HEIGHT), 1e-3, "foot %d steps up onto ground 8 px higher" % i)
	expect_near(high["grounder"].get_hips_drop(), 0.0, 0.0, "the hips never rise")


func test_slope_puts_each_foot_on_the_surface_turned_to_its_normal_within_max_tilt() -> void:
	# [max_tilt, toe_ray]: within max_tilt the foot lies on the slope either way; beyond it (0.15 < 0.25) the one-ray
	# foot keeps its ankle foot_height off the slope along the normal, the heel-and-toe foot rests its heel's sole
	# point on the slope (turned about it) with its toe not inside.
	for config in [[0.6, true], [0.15, true], [0.15, false]]:
		var max_tilt: float = config[0]
		var toe_ray: bool = config[1]
		var slope := 0.25
		var x := 300.0 + 500.0 * [[0.6, true], [0.15, true], [0.15, false]].find(config)
		var case := make_grounded_character(Vector2(x, 200))
		case["grounder"].max_tilt = max_tilt
		case["grounder"].toe_ray = toe_ray
		var anchor := Vector2(x, case["line_y"] + 6.0)
		# How high each toe is over the animation's ground line (one is drawn 0.45 px into it): it keeps that much.
		var toe_heights := []
		for i in 2:
			toe_heights.append(case["line_y"] - Rig.bone_end(case["feet"][i]).y)
		make_box_under(anchor, Vector2(800, 100), slope)
		await settle_physics()
		expect(advance(case, 3), "the grounder solves on a slope")
		var normal := Vector2(0, -1).rotated(slope)
		var worst_surface := 0.0
		var worst_turn := 0.0
		var worst_toe := 0.0
		for i in 2:
			var ankle := Rig.bone_end(case["shins"][i])
			var turn := angle_difference(case["foot_angles"][i], axis_angle(case["feet"][i]))
			# One ray: the ankle foot_height off the surface along its normal. Heel and toe: the heel's sole point
			# (foot_height under the ankle along the turned foot's up) on the surface.
			var under := normal if not toe_ray else Vector2(0, -1).rotated(turn)
			worst_surface = maxf(worst_surface, absf((ankle - under * FOOT_HEIGHT - anchor).dot(normal)))
			worst_turn = maxf(worst_turn, absf(turn - minf(slope, max_tilt)))
			worst_toe = maxf(worst_toe, toe_heights[i] - (Rig.bone_end(case["feet"][i]) - anchor).dot(normal))
			expect(case["legs"][i].last_error < 1e-3, "leg %d reaches on the slope (%f px)" % [i, case["legs"][i].last_error])
		var label := "max_tilt %.2f, %s" % [max_tilt, "heel and toe rays" if toe_ray else "one ray"]
		expect(worst_surface < 1e-3, "%s: each foot stands on the slope (worst %.6f px off)" % [label, worst_surface])
		expect(worst_turn < 1e-4, "%s: each foot turned by min(slope, max_tilt) (worst %.8f rad off)" % [label, worst_turn])
		if toe_ray:
			expect(worst_toe < 1e-3, "%s: no toe deeper into the slope than the animation has it into its ground line (worst %.6f px deeper)" % [label, worst_toe])
		expect(case["grounder"].get_hips_drop() > 0.0, "the hips come down for the lower foot")
		print("slope 0.25 rad, %s: worst %.6f px off the surface, foot turn %.8f rad off, toe deeper by up to %.4f px, hips drop %.3f px" % [label, worst_surface, worst_turn, worst_toe, case["grounder"].get_hips_drop()])


func test_stair_grounds_each_foot_on_its_step_and_lowers_the_hips_for_the_lower_one() -> void:
	var case := make_grounded_character(Vector2(400, 200))
	var line_y: float = case["line_y"]
	# Foot 0 (x > 400) stands on the upper step, foot 1 on the lower one.
	make_box_under(Vector2(500, line_y - 8.0), Vector2(200, 100))
	make_box_under(Vector2(300, line_y + 12.0), Vector2(200, 100))
	await settle_physics()
	expect(advance(case, 3), "the grounder solves on a stair")
	var tops := [line_y - 8.0, line_y + 12.0]
	var worst := 0.0
	for i in 2:
		var ankle := Rig.bone_end(case["shins"][i])
		worst = maxf(worst, ankle.distance_to(Vector2(case["ankles"][i].x, tops[i] - FOOT_HEIGHT)))
		expect(case["legs"][i].last_error < 1e-3, "leg %d reaches its step (%f px)" % [i, case["legs"][i].last_error])
	expect(worst < 1e-3, "each ankle is foot_height above its own step (worst %.6f px)" % worst)
	expect_near(case["grounder"].get_hips_drop(), 12.0, 1e-4, "the hips come down by the lower step's 12 px")
	print("stair (+8 / -12 px): worst ankle %.6f px from its step + foot_height, hips drop %.4f px" % [worst, case["grounder"].get_hips_drop()])


func test_speed_limits_hold_frame_to_frame_across_a_stair_edge() -> void:
	var case := make_grounded_character(Vector2(200, 200))
	# The same walk without limits, for comparison: the step's edge pops its goal.
	var free := make_grounded_character(Vector2(200, 200))
	var grounder: Node2D = case["grounder"]
	grounder.foot_speed = 120.0
	grounder.hips_speed = 60.0
	grounder.tilt_speed = 2.0
	var line_y: float = case["line_y"]
	# Flat, then a 20 px step down at x = 300, then a slope up.
	make_box_under(Vector2(150, line_y), Vector2(300, 100))
	make_box_under(Vector2(450, line_y + 20.0), Vector2(300, 100))
	make_box_under(Vector2(700, line_y + 20.0), Vector2(200, 100), -0.3)
	await settle_physics()
	var character: Node2D = case["character"]
	var previous := []
	var previous_drop := 0.0
	var previous_tilt := [0.0, 0.0]
	var worst_foot := 0.0
	var worst_hips := 0.0
	var worst_tilt := 0.0
	var free_previous := []
	var free_worst := 0.0
	var ok := true
	for frame in 360:
		character.position.x += 1.5
		free["character"].position.x += 1.5
		ok = advance(case) and advance(free) and ok
		var free_now := []
		for i in 2:
			free_now.append(free["grounder"].get_foot_goal(i) - free["character"].position)
			if frame > 0:
				free_worst = maxf(free_worst, (free_now[i] - free_previous[i]).length())
		free_previous = free_now
		var drop: float = grounder.get_hips_drop()
		var now := []
		for i in 2:
			now.append(grounder.get_foot_goal(i) - character.position)
			if frame > 0:
				worst_foot = maxf(worst_foot, (now[i] - previous[i]).length())
				worst_tilt = maxf(worst_tilt, absf(grounder.get_foot_tilt(i) - previous_tilt[i]))
			previous_tilt[i] = grounder.get_foot_tilt(i)
		if frame > 0:
			worst_hips = maxf(worst_hips, absf(drop - previous_drop))
		previous = now
		previous_drop = drop
		ok = all_points_finite(case) and ok
	expect(ok, "every frame solves and every joint stays finite")
	var foot_limit := 120.0 * DT
	expect(worst_foot <= foot_limit + 1e-4, "a foot's correction moves at most foot_speed * delta = %.4f px per frame (worst %.4f)" % [foot_limit, worst_foot])
	expect(worst_foot >= foot_limit * 0.99, "the stair's edge made the limit bite (worst step %.4f px)" % worst_foot)
	expect(worst_hips <= 60.0 * DT + 1e-4, "the hips move at most hips_speed * delta = %.4f px per frame (worst %.4f)" % [60.0 * DT, worst_hips])
	expect(worst_hips >= 60.0 * DT * 0.99, "the hips' limit bit (worst step %.4f px)" % worst_hips)
	expect(worst_tilt <= 2.0 * DT + 1e-5, "a foot turns at most tilt_speed * delta = %.4f rad per frame (worst %.4f)" % [2.0 * DT, worst_tilt])
	expect(free_worst >= 15.0, "without limits the step's edge pops a goal by most of the 20 px step (%.4f px in one frame)" % free_worst)
	print("without limits the same walk's goals jump %.4f px in one frame" % free_worst)
	print("speed limits over 360 frames across a 20 px step and onto a 0.3 rad slope: foot %.4f px/frame (limit %.4f), hips %.4f px/frame (limit %.4f), tilt %.4f rad/frame (limit %.4f)" % [worst_foot, foot_limit, worst_hips, 60.0 * DT, worst_tilt, 2.0 * DT])
	# Settled on the slope: the feet are on it.
	expect(advance(case, 120), "every frame on the slope solves")
	var normal := Vector2(0, -1).rotated(-0.3)
	for i in 2:
		var ankle := Rig.bone_end(case["shins"][i])
		expect_near((ankle - Vector2(700, line_y + 20.0)).dot(normal), FOOT_HEIGHT, 1e-3, "foot %d settles on the slope" % i)


func test_a_mirrored_character_on_mirrored_ground_is_the_mirror_image() -> void:
	var axis := 500.0
	var right := make_grounded_character(Vector2(axis - 250.0, 200))
	var left := make_grounded_character(Vector2(axis + 250.0, 200), -1.0)
	for case in [right, left]:
		case["grounder"].foot_speed = 150.0
		case["grounder"].hips_speed = 80.0
		case["grounder"].tilt_speed = 3.0
	var line_y: float = right["line_y"]
	for side in [1.0, -1.0]:
		make_box_under(Vector2(axis - side * 300.0, line_y + 4.0), Vector2(200, 100), side * 0.2)
		make_box_under(Vector2(axis - side * 160.0, line_y + 24.0), Vector2(100, 100))
		make_box_under(Vector2(axis - side * 80.0, line_y + 10.0), Vector2(60, 100), side * -0.35)
	await settle_physics()
	var worst := 0.0
	var ok := true
	for frame in 200:
		right["character"].position.x += 1.2
		left["character"].position.x -= 1.2
		ok = advance(right) and advance(left) and ok
		var a := leg_points(right)
		var b := leg_points(left)
		worst = maxf(worst, largest_mirror_distance(a, b, axis))
		for i in 2:
			var turn_a := angle_difference(right["foot_angles"][i], axis_angle(right["feet"][i]))
			var turn_b := angle_difference(left["foot_angles"][i], axis_angle(left["feet"][i]))
			worst = maxf(worst, absf(turn_a + turn_b) * FOOT)
	expect(ok, "both characters solve every frame")
	# The heel and toe rays turn each foot to the line between two hit points, whose last bits the physics engine
	# rounds differently in the mirrored world (0.001 px with one ray, up to 0.003 px with two).
	expect(worst < 5e-3, "200 frames over slopes and a stair: the mirrored character is the mirror image (worst %.6f px)" % worst)
	print("mirror over 200 frames of slopes and a stair: worst %.6f px (joints, and foot turns as px at the toe)" % worst)


func test_bad_input_is_reported_once_and_never_writes_nan() -> void:
	var case := make_grounded_character(Vector2(300, 200))
	var grounder: Node2D = case["grounder"]
	var line_y: float = case["line_y"]
	make_box_under(Vector2(300, line_y + 10.0), Vector2(600, 100))
	await settle_physics()
	# Nothing on the mask: the feet follow the animation.
	grounder.collision_mask = 2
	error_log.take()
	expect(advance(case, 3), "no ground is not an error")
	for i in 2:
		expect(not grounder.is_foot_grounded(i), "foot %d found no ground on layer 2" % i)
		expect_vec_near(Rig.bone_end(case["shins"][i]), case["ankles"][i], 1e-3, "foot %d follows its animation without ground" % i)
	expect_near(grounder.get_hips_drop(), 0.0, 0.0, "no ground, no drop")
	grounder.collision_mask = 1
	expect(advance(case, 2), "the ground back on the mask: the grounder solves")
	# NaN and out-of-range settings: refused with one error each, the last good value kept.
	for setting in [["foot_height", NAN], ["ray_above", -1.0], ["ray_below", INF], ["max_tilt", 2.0], ["foot_speed", NAN], ["tilt_speed", -3.0], ["hips_speed", NAN], ["max_hips_drop", -INF], ["collision_mask", -1], ["update_mode", 7]]:
		var before = grounder.get(setting[0])
		error_log.take()
		grounder.set(setting[0], setting[1])
		expect(grounder.get(setting[0]) == before, "%s = %s is refused" % setting)
		expect(error_log.take().size() == 1, "%s = %s prints one error" % setting)
	expect(not grounder.advance(NAN), "advance(NAN) refuses")
	expect(error_log.take().size() == 1, "advance(NAN) prints one error")
	expect(advance(case), "the grounder still works after bad input")
	# A freed foot bone: one error, the legs still grounded, no NaN.
	case["feet"][1].free()
	error_log.take()
	# The setup names a freed foot, so advance() reports false every frame; the legs are still grounded.
	var after_free := []
	for i in 5:
		after_free.append(advance(case))
	expect(after_free == [false, false, false, false, false], "advance() reports the broken setup every frame: %s" % [after_free])
	for i in 2:
		expect(grounder.is_foot_grounded(i), "foot %d still found the ground with a foot bone freed" % i)
		expect_vec_near(Rig.bone_end(case["shins"][i]), Vector2(case["ankles"][i].x, line_y + 10.0 - FOOT_HEIGHT), 1e-3, "ankle %d still on the ground with a foot bone freed" % i)
	var messages := error_log.take()
	expect(messages.size() == 1 and "second_foot" in messages[0], "a freed foot is reported once: %s" % [messages])
	grounder.second_foot = null
	expect(advance(case, 2), "the freed foot cleared: the grounder solves")
	# A freed leg: one error naming it, the other leg still grounded.
	case["legs"][0].free()
	error_log.take()
	var solved := true
	for i in 5:
		solved = advance(case) and solved
	messages = error_log.take()
	expect(not solved, "advance() says a leg was not solved")
	expect(messages.size() == 1 and "first_leg" in messages[0], "a freed leg is reported once: %s" % [messages])
	expect(grounder.is_foot_grounded(1), "the other leg still stands on the ground")
	expect_vec_near(Rig.bone_end(case["shins"][1]), Vector2(case["ankles"][1].x, line_y + 10.0 - FOOT_HEIGHT), 1e-3, "the other foot is still on the ground")
	for bone in [case["hips"], case["thighs"][1], case["shins"][1]]:
		expect(is_finite(bone.rotation) and bone.position.is_finite(), "%s stays finite" % bone.name)


func test_get_setup_warning_says_what_is_wrong_before_any_frame() -> void:
	# Manual mode, never advanced: the warning is checked when asked, each broken setup named, then empty again.
	var case := make_grounded_character(Vector2(300, 200))
	var grounder: Node2D = case["grounder"]
	expect(grounder.get_setup_warning() == "", "a good setup: no warning (%s)" % grounder.get_setup_warning())
	var stray := Bone2D.new()
	case["hips"].add_child(stray)
	var shin: Bone2D = case["shins"][1]
	var cases := [
		["no legs", func(): grounder.first_leg = null; grounder.second_leg = null, func(): grounder.first_leg = case["legs"][0]; grounder.second_leg = case["legs"][1], "No legs"],
		["a leg without bones", func(): case["legs"][1].tip_bone = null, func(): case["legs"][1].tip_bone = shin, "`second_leg` cannot be solved"],
		["a foot elsewhere", func(): grounder.first_foot = stray, func(): grounder.first_foot = case["feet"][0], "`first_foot` must be a direct Bone2D child"],
	]
	for c in cases:
		c[1].call()
		var warning: String = grounder.get_setup_warning()
		expect(c[3] in warning, "%s: the warning says so (%s)" % [c[0], warning])
		c[2].call()
		expect(grounder.get_setup_warning() == "", "%s fixed: no warning (%s)" % [c[0], grounder.get_setup_warning()])
	# Freed nodes: named as well.
	var freed_hips := Node2D.new()
	case["character"].add_child(freed_hips)
	grounder.hips = freed_hips
	freed_hips.free()
	expect("`hips` was freed" in grounder.get_setup_warning(), "freed hips: %s" % grounder.get_setup_warning())
	grounder.hips = case["hips"]
	case["feet"][1].free()
	expect("`second_foot` was freed" in grounder.get_setup_warning(), "a freed foot: %s" % grounder.get_setup_warning())
	grounder.second_foot = null
	expect(grounder.get_setup_warning() == "", "all fixed: no warning")
	error_log.take()
	stray.free()
	case["character"].free()


func test_disabling_or_leaving_puts_the_hips_and_feet_back_and_targets_are_never_moved() -> void:
	var case := make_grounded_character(Vector2(300, 200))
	var grounder: Node2D = case["grounder"]
	var target := make_target(Vector2(310, 260))
	case["legs"][0].target = target
	make_box_under(Vector2(300, case["line_y"] + 10.0), Vector2(600, 100))
	await settle_physics()
	var hips_position: Vector2 = case["hips"].position
	var foot_rotations := [case["feet"][0].rotation, case["feet"][1].rotation]
	expect(advance(case, 3), "the grounder solves")
	expect(case["hips"].position != hips_position, "grounded, the hips are lowered")
	expect(target.global_position == Vector2(310, 260), "the leg's own target is never moved")
	grounder.enabled = false
	expect(case["hips"].position == hips_position, "disabled: the hips' own position is back exactly")
	for i in 2:
		expect(case["feet"][i].rotation == foot_rotations[i], "disabled: foot %d's own rotation is back exactly" % i)
	grounder.enabled = true
	expect(advance(case, 3), "enabled again, the grounder solves")
	expect(case["hips"].position != hips_position, "enabled again, the hips are lowered again")
	# An animation that moves the hips keeps working: its position is the one the drop is added to.
	case["hips"].position = hips_position + Vector2(3, -4)
	expect(advance(case), "the grounder solves after the hips moved")
	expect_vec_near(case["hips"].position, hips_position + Vector2(3, -4 + grounder.get_hips_drop()), 1e-4, "the drop is added to the hips' new position")
	case["character"].remove_child(grounder)
	expect_vec_near(case["hips"].position, hips_position + Vector2(3, -4), 0.0, "leaving the tree puts the hips' own position back")
	grounder.free()
	# The legs solve by themselves again (toward their target, if any).
	case["legs"][0].solve()
	expect(case["legs"][0].last_error < 1e-3, "a leg whose grounder left reaches its own target again")


func test_grounding_allocates_nothing_per_frame() -> void:
	var case := make_grounded_character(Vector2(300, 200))
	case["grounder"].foot_speed = 100.0
	make_box_under(Vector2(300, case["line_y"] + 10.0), Vector2(600, 100), 0.1)
	await settle_physics()
	expect(advance(case, 10), "the grounder solves before the count")
	var baseline: int = ClassDB.class_call_static("Reach2DDebug", "node_heap_allocations")
	var solved := 0
	for i in 60:
		case["character"].position.x += 0.5
		if advance(case):
			solved += 1
	var used: int = ClassDB.class_call_static("Reach2DDebug", "node_heap_allocations") - baseline
	expect(solved == 60, "every counted frame solved both legs (%d of 60)" % solved)
	expect(used == 0, "60 grounded frames made %d heap allocations in the nodes' code" % used)


## FootGrounder2D is not a chain, so it is not in lib/node_classes.gd; its numeric properties (read from ClassDB)
## go through test_every_route.gd's routes here: `node.x = v`, `set("x", v)`, `set_x(v)` and `call("set_x", v)`.
func test_a_grounded_leg_is_solved_once_per_frame() -> void:
	# The grounder solves its legs at run time; the legs' own processing (their callbacks or the batch pass that
	# runs default-priority IK nodes) must not solve them again. A speed limit shows it: solved twice a frame, a
	# leg would turn up to twice its limit.
	var case := make_grounded_character(Vector2(400, 200))
	# Ground 15 px above where the animation's feet stand: the knees bend (the hips never rise).
	make_box_under(Vector2(400, case["line_y"] - 15.0), Vector2(600, 40))
	await settle_physics()
	var limit := 1.5
	# Targets left on the legs (as a user switching to the grounder might): the grounder's goal replaces them.
	var aside := make_target(Vector2(600, 150))
	for leg in case["legs"]:
		leg.max_angular_speed = limit
		leg.target = aside
	case["grounder"].update_mode = 0
	var thighs: Array = case["thighs"]
	var last := [thighs[0].rotation, thighs[1].rotation]
	var worst_ratio := 0.0
	var moved := 0.0
	# `process_frame` fires before the frame's callbacks: what changed since the last await is the last frame's
	# solve, made with the last frame's delta.
	var delta := 0.0
	for frame in 40:
		await get_tree().process_frame
		for i in 2:
			var step := absf(angle_difference(last[i], thighs[i].rotation))
			last[i] = thighs[i].rotation
			moved += step
			if frame > 1 and delta > 0.0:
				worst_ratio = maxf(worst_ratio, step / (limit * delta))
		delta = get_process_delta_time()
	expect(moved > 0.05, "the legs bent toward the higher ground (%s rad)" % moved)
	expect(worst_ratio <= 1.01, "no leg turned faster than its speed limit: solved once a frame (worst %.3f of the limit)" % worst_ratio)
	print("grounded legs: worst step %.3f of the speed limit, moved %.3f rad" % [worst_ratio, moved])
	case["character"].free()


func test_every_property_by_every_route() -> void:
	var routes: Node = load("res://robustness/test_every_route.gd").new()
	var properties: Array = routes.own_properties("FootGrounder2D")
	expect(properties.size() >= 10, "FootGrounder2D: %d numeric properties found" % properties.size())
	var checked := 0
	for property in properties:
		var name: String = property["name"]
		var bad: Array = routes.BAD_FLOATS
		if property["type"] == TYPE_INT:
			bad = [-1, 1 << 32, -2147483648] if property["hint"] == PROPERTY_HINT_LAYERS_2D_PHYSICS else [-1, 1000000, -2147483648]
		for route in routes.ROUTES:
			for value in bad:
				var node: Node2D = ClassDB.instantiate("FootGrounder2D")
				var before: Variant = node.get(name)
				var errors := error_log.messages.size()
				routes.assign(node, name, value, route)
				expect(node.get(name) == before, "FootGrounder2D.%s by %s = %s: kept %s, got %s" % [name, route, value, before, node.get(name)])
				expect(error_log.messages.size() - errors == 1, "FootGrounder2D.%s by %s = %s: one error, got %d" % [name, route, value, error_log.messages.size() - errors])
				node.free()
				checked += 1
	routes.free()
	print("FootGrounder2D, every route: %d cases" % checked)

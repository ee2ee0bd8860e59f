extends "res://lib/test_case.gd"
## LegStepper2D (issue 33): a six-legged creature (four TwoBoneIk2D legs, a FabrikChain2D and a CcdChain2D leg, bone
## angles != 0) walks over real ground (a StaticBody2D with a bump, a block, a slope and a drop) while a script moves
## its root, beside its mirror image (scale.x = -1 on mirrored ground). Proves with numbers: planted feet never slide,
## no foot below the ground, one group in the air at a walk, the mirror image within 0.05 px, no pop at a turn or a
## teleport, each signal once per event, the body raised and tilted within its limits, and the measurements the
## README quotes (printed as `MEASURED ...`).

const DT := 1.0 / 60.0
const DROP: float = Characters.STEPPER_FOOT_DROP
## The mirror axis of the mirrored twins: x = 0 (x and -x round alike).
const AXIS := 0.0


## The speed a walk has at frame `frame`, px/s: 60 to 160, speeding up and slowing down.
func walk_speed(frame: int) -> float:
	return 60.0 + 100.0 * pow(sin(frame * DT * 0.45), 2)


## A creature at x (its feet on the ground), optionally the mirror twin of one at -x.
func make_creature(x: float, mirrored := false, legs := Characters.six_legs()) -> Dictionary:
	var at := Vector2(2.0 * AXIS - x if mirrored else x, Characters.stepper_ground_height(x) - DROP)
	return Characters.stepping_creature(self, at, -1.0 if mirrored else 1.0, legs)


## Moves `case`'s root by `dx` (its own facing's direction is the caller's) and lets its y follow the ground under it
## smoothly, as a character controller would; then steps it.
func move_and_step(case: Dictionary, dx: float, mirrored := false) -> void:
	var root: Node2D = case["creature"]
	root.position.x += dx
	var x := 2.0 * AXIS - root.position.x if mirrored else root.position.x
	root.position.y = lerpf(root.position.y, Characters.stepper_ground_height(x) - DROP, minf(1.0, 6.0 * DT))
	case["stepper"].advance(DT)


## Every joint of every leg, and each foot's end effector, global.
func leg_joints(case: Dictionary) -> PackedVector2Array:
	var points := PackedVector2Array()
	for bones: Array in case["bones"]:
		for b: Bone2D in bones:
			points.append(b.global_position)
		points.append(Rig.bone_end(bones[-1]))
	return points


func feet_of(case: Dictionary) -> PackedVector2Array:
	var points := PackedVector2Array()
	for bones: Array in case["bones"]:
		points.append(Rig.bone_end(bones[-1]))
	return points


## The walk's measures for one creature, updated each frame by `measure`.
class Walk:
	## Planted slip of the two-bone legs and of the chain legs (within their tolerance), px.
	var slip := 0.0
	var chain_slip := 0.0
	## Leg i is a chain (FabrikChain2D, CcdChain2D).
	var chains := {}
	var goal_slip := 0.0
	var below := 0.0
	var most_in_air := 0
	var planted_frames := 0
	var anchors := {}
	var goal_anchors := {}

	func measure(stepper: Node2D, feet: PackedVector2Array, mirrored: bool) -> void:
		most_in_air = maxi(most_in_air, stepper.get_feet_in_air())
		for i in feet.size():
			var foot := feet[i]
			var x := -foot.x if mirrored else foot.x
			below = maxf(below, foot.y - Characters.stepper_ground_height(x))
			if not stepper.is_foot_planted(i):
				anchors.erase(i)
				continue
			planted_frames += 1
			var goal: Vector2 = stepper.get_foot_goal(i)
			if not anchors.has(i):
				anchors[i] = foot
				goal_anchors[i] = goal
			if chains.has(i):
				chain_slip = maxf(chain_slip, foot.distance_to(anchors[i]))
			else:
				slip = maxf(slip, foot.distance_to(anchors[i]))
			goal_slip = maxf(goal_slip, goal.distance_to(goal_anchors[i]))


func test_a_walk_over_bumps_a_block_and_a_slope_plants_its_feet_and_mirrors() -> void:
	Characters.stepper_ground(self)
	Characters.stepper_ground(self, true, AXIS)
	await settle_physics()
	var case := make_creature(40.0)
	var twin := make_creature(40.0, true)
	var walks := [Walk.new(), Walk.new()]
	for walk: Walk in walks:
		for i in case["legs"].size():
			if case["legs"][i].get_class() != "TwoBoneIk2D":
				walk.chains[i] = true
	var mirror_worst := 0.0
	var lifted := [0]
	case["stepper"].foot_lifted.connect(func(_i: int) -> void: lifted[0] += 1)
	for frame in 600:
		var dx := walk_speed(frame) * DT
		move_and_step(case, dx)
		move_and_step(twin, -dx, true)
		walks[0].measure(case["stepper"], feet_of(case), false)
		walks[1].measure(twin["stepper"], feet_of(twin), true)
		mirror_worst = maxf(mirror_worst, largest_mirror_distance(leg_joints(case), leg_joints(twin), AXIS))
	var walk: Walk = walks[0]
	var x: float = case["creature"].position.x
	expect(x > 1000.0, "the creature crossed the ground's features (x %.0f)" % x)
	expect(lifted[0] > 60, "it stepped (%d lifts)" % lifted[0])
	expect(walk.planted_frames > 1500, "planted foot-frames measured: %d" % walk.planted_frames)
	expect(walk.goal_slip == 0.0, "a planted foot's goal never moves (moved %.6f px)" % walk.goal_slip)
	expect(walk.slip < 1e-3, "a planted two-bone foot never slides (slid %.5f px)" % walk.slip)
	expect(walk.chain_slip < 0.02, "a planted chain foot stays within its tolerance, 0.01 px (slid %.5f px)" % walk.chain_slip)
	expect(walk.below < 0.01, "no foot below the ground (worst %.5f px)" % walk.below)
	expect(walk.most_in_air <= 3, "one group of three in the air at a time (most %d)" % walk.most_in_air)
	expect(case["stepper"].get_catch_up_count() == 0, "no catch-up at a walk")
	expect(mirror_worst < 0.05, "the mirrored creature is the mirror image (worst joint %.5f px)" % mirror_worst)
	print("MEASURED walk 600 frames: planted slip %.5f px two-bone legs, %.5f px chain legs (tolerance 0.01), goal %.6f px; feet below ground worst %.5f px; most feet in air %d (of 6); catch-ups %d; lifts %d; mirror worst joint %.5f px; mirrored twin: slip %.5f / %.5f px, below %.5f px" % [
		walk.slip, walk.chain_slip, walk.goal_slip, walk.below, walk.most_in_air, case["stepper"].get_catch_up_count(),
		lifted[0], mirror_worst, walks[1].slip, walks[1].chain_slip, walks[1].below])
	free_case(case, ["creature"])
	free_case(twin, ["creature"])

extends "res://lib/test_case.gd"
## LegStepper2D at its default settings on the creatures a new user draws first, each beside its mirror twin: a
## spider with three-bone FabrikChain2D legs (30/30/20 px), a four-legged walker whose feet rest at 91-97% of their
## legs' reach (two-bone and three-bone legs), a start from a standstill at 200 px/s, a stop, and stairs. On every
## frame: a planted foot stands on its point (within 0.5 px) and does not slide (at most 0.1 px a frame), it stands
## on the ground (within 0.5 px), and the twin is the mirror image.

const Walkers := preload("res://lib/walkers.gd")

const DT := 1.0 / 60.0
const GROUND_Y := 400.0


## A leg of `lengths` (two or three bones) from `hip` to `foot` (body space, y down), knees up and out.
static func leg_of(hip: Vector2, foot: Vector2, lengths: Array, klass := "FabrikChain2D") -> Dictionary:
	var out := signf(foot.x - hip.x) if foot.x != hip.x else 1.0
	if lengths.size() == 2:
		return {"hip": hip, "knee": Walkers.apex(hip, foot, lengths[0], lengths[1], out), "foot": foot, "klass": "TwoBoneIk2D"}
	var shin: float = lengths[1] + lengths[2]
	var knee := Walkers.apex(hip, foot, lengths[0], shin * 0.97, out)
	var mid := Walkers.apex(knee, foot, lengths[1], lengths[2], out)
	return {"hip": hip, "knee": knee, "mid": mid, "foot": foot, "klass": klass}


## Ground under `parent` along `profile`, mirrored across x = 0 with `facing` -1.
static func ground_along(parent: Node, profile: PackedVector2Array, facing: float) -> StaticBody2D:
	return Walkers.ground(parent, profile, GROUND_Y + 300.0, Vector2.ZERO, facing)


## The ground's height at `x` on `profile` (the higher side on a riser).
static func height_at(profile: PackedVector2Array, x: float) -> float:
	var best := INF
	for k in profile.size() - 1:
		var a := profile[k]
		var b := profile[k + 1]
		if x >= minf(a.x, b.x) and x <= maxf(a.x, b.x):
			best = minf(best, minf(a.y, b.y) if a.x == b.x else lerpf(a.y, b.y, (x - a.x) / (b.x - a.x)))
	return best


## A creature at `at` (its feet's line `drop` below) facing `facing`, its legs `legs`, walking with a LegStepper2D
## at its defaults (manual mode), every leg node at its defaults too.
func creature(legs: Array, at: Vector2, facing: float) -> Dictionary:
	var root := Node2D.new()
	root.position = at
	root.scale = Vector2(facing, 1.0)
	add_child(root)
	var skeleton := Skeleton2D.new()
	root.add_child(skeleton)
	var built := Rig.legged_creature(skeleton, legs, 0.25, root)
	var stepper: Node2D = ClassDB.instantiate("LegStepper2D")
	stepper.update_mode = 2
	root.add_child(stepper)
	stepper.legs = built["legs"]
	stepper.body = built["body"]
	var case := {"root": root, "stepper": stepper, "bones": built["bones"], "footprints": {}, "lifted": {}}
	stepper.foot_planted.connect(func(i: int, p: Vector2) -> void: case["footprints"][i] = p)
	return case


class Measure:
	var off := 0.0
	var slide := 0.0
	var floating := 0.0
	var sinking := 0.0
	var footprint := 0.0
	var most_in_air := 0
	var mirror := 0.0
	var joint_jump := 0.0
	var knee_inside := 0.0
	var last_goal := {}
	var last_end := {}
	var last_joints := {}


## One frame's measures of `case` (facing `facing`, on `profile`) into `m`.
func take(m: Measure, case: Dictionary, profile: PackedVector2Array, facing: float) -> void:
	var stepper: Node2D = case["stepper"]
	m.most_in_air = maxi(m.most_in_air, stepper.get_feet_in_air())
	for i in case["bones"].size():
		var bones: Array = case["bones"][i]
		var end := Rig.bone_end(bones[-1])
		var leg := "%d%s" % [i, "" if facing > 0.0 else "m"]
		var goal: Vector2 = stepper.get_foot_goal(i)
		for k in range(1, bones.size()):
			var knee: Vector2 = (bones[k] as Bone2D).global_position
			m.knee_inside = maxf(m.knee_inside, knee.y - height_at(profile, knee.x * facing))
			var key := "%s/%d" % [leg, k]
			if m.last_joints.has(key):
				m.joint_jump = maxf(m.joint_jump, knee.distance_to(m.last_joints[key]))
			m.last_joints[key] = knee
		if stepper.is_foot_planted(i):
			m.off = maxf(m.off, end.distance_to(goal))
			# At a riser's edge the foot may stand on either step: the ground within 1 px across.
			var x := end.x * facing
			var top := minf(height_at(profile, x), minf(height_at(profile, x - 1.0), height_at(profile, x + 1.0)))
			var bottom := maxf(height_at(profile, x), maxf(height_at(profile, x - 1.0), height_at(profile, x + 1.0)))
			if top - end.y > 1.0 and OS.has_environment("REACH2D_DEBUG"):
				print("DEBUG floating leg %s at %s top %.2f" % [leg, end, top])
			m.floating = maxf(m.floating, top - end.y)
			m.sinking = maxf(m.sinking, end.y - bottom)
			m.footprint = maxf(m.footprint, end.distance_to(case["footprints"].get(i, end)))
			if m.last_goal.get(leg) == goal:
				m.slide = maxf(m.slide, end.distance_to(m.last_end[leg]))
			m.last_goal[leg] = goal
		else:
			m.last_goal[leg] = null
		m.last_end[leg] = end


## Walks `legs` and the twin at `speeds` (one px/s figure per frame) over `profile`; returns the measures.
func walk(legs: Array, profile: PackedVector2Array, speeds: Array, start_x := 0.0) -> Measure:
	var grounds := [ground_along(self, profile, 1.0), ground_along(self, profile, -1.0)]
	var drop: float = legs[0]["foot"].y
	var y := height_at(profile, start_x) - drop
	var pair := [creature(legs, Vector2(start_x, y), 1.0), creature(legs, Vector2(-start_x, y), -1.0)]
	await settle_physics()
	var m := Measure.new()
	for speed: float in speeds:
		for side in 2:
			var case: Dictionary = pair[side]
			var root: Node2D = case["root"]
			var facing := 1.0 if side == 0 else -1.0
			root.position.x += speed * DT * facing
			# The root rides the ground as a character controller would.
			root.position.y = lerpf(root.position.y, height_at(profile, absf(root.position.x)) - drop, minf(1.0, 6.0 * DT))
			case["stepper"].advance(DT)
			take(m, case, profile, facing)
		for i in legs.size():
			var a := Rig.bone_end(pair[0]["bones"][i][-1])
			var b := Rig.bone_end(pair[1]["bones"][i][-1])
			m.mirror = maxf(m.mirror, a.distance_to(Vector2(-b.x, b.y)))
	m.set_meta("pair", pair)
	m.set_meta("grounds", grounds)
	return m


func done(m: Measure) -> void:
	for case: Dictionary in m.get_meta("pair"):
		case["root"].free()
	for g: Node in m.get_meta("grounds"):
		g.free()


func flat() -> PackedVector2Array:
	return PackedVector2Array([Vector2(-3000, GROUND_Y), Vector2(3000, GROUND_Y)])


## Stairs up and down: 12 px steps every 60 px from x 300, up four, a landing, down four.
func stairs() -> PackedVector2Array:
	var p := PackedVector2Array([Vector2(-3000, GROUND_Y)])
	var x := 300.0
	var y := GROUND_Y
	for k in 8:
		p.append(Vector2(x, y))
		y += -12.0 if k < 4 else 12.0
		p.append(Vector2(x, y))
		x += 60.0 if k != 3 else 120.0
	p.append(Vector2(3000, y))
	return p


## A spider: eight three-bone FabrikChain2D legs of 30/30/20 px, feet 45 px below the body, spread 18-66 px.
func spider() -> Array:
	var legs := []
	for x: float in [-66.0, -50.0, -34.0, -18.0, 18.0, 34.0, 50.0, 66.0]:
		legs.append(leg_of(Vector2(x * 0.3, 0.0), Vector2(x, 45.0), [30.0, 30.0, 20.0]))
	return legs


## A four-legged walker whose feet rest at `rests` of their legs' reach: legs 0 and 3 two-bone, 1 and 2 three-bone
## (FABRIK, CCD).
func long_legged(rests: Array) -> Array:
	var legs := []
	var xs := [-40.0, -14.0, 14.0, 40.0]
	var kinds := ["TwoBoneIk2D", "FabrikChain2D", "CcdChain2D", "TwoBoneIk2D"]
	for i in 4:
		var hip := Vector2(xs[i] * 0.6, 0.0)
		var foot := Vector2(xs[i], 70.0)
		var total: float = hip.distance_to(foot) / rests[i]
		var lengths := [total * 0.5, total * 0.5] if kinds[i] == "TwoBoneIk2D" else [total * 0.4, total * 0.35, total * 0.25]
		legs.append(leg_of(hip, foot, lengths, kinds[i]))
	return legs


func speeds(from: float, to: float, frames: int) -> Array:
	var out := []
	for k in frames:
		out.append(lerpf(from, to, float(k) / float(frames - 1)))
	return out


func expect_stands(m: Measure, what: String) -> void:
	expect(m.off <= 0.5, "%s: a planted foot within 0.5 px of its point (%.3f)" % [what, m.off])
	expect(m.slide <= 0.1, "%s: a planted foot slides at most 0.1 px a frame (%.4f)" % [what, m.slide])
	expect(m.floating <= 0.5 and m.sinking <= 0.5, "%s: planted feet on the ground (%.3f px above, %.3f px below)" % [what, m.floating, m.sinking])
	expect(m.footprint <= 0.5, "%s: footprints from foot_planted on the planted feet (%.3f px)" % [what, m.footprint])
	expect(m.mirror <= 0.1, "%s: the twin is the mirror image (%.4f px)" % [what, m.mirror])


func test_a_spider_with_three_bone_fabrik_legs_walks_at_the_defaults() -> void:
	var m := await walk(spider(), flat(), speeds(40.0, 140.0, 360))
	print("MEASURED spider (8 FABRIK legs 30/30/20, defaults), 40-140 px/s on flat ground: planted foot off its point %.4f px, slide %.4f px/frame, %.4f px above / %.4f px below the ground, footprint %.4f px, most feet in air %d, mirror %.5f px" % [m.off, m.slide, m.floating, m.sinking, m.footprint, m.most_in_air, m.mirror])
	expect_stands(m, "spider")
	done(m)


func test_legs_resting_near_full_reach_walk_at_the_defaults() -> void:
	for rests: Array in [[0.91, 0.93, 0.95, 0.97], [0.97, 0.95, 0.93, 0.91]]:
		for top: float in [60.0, 100.0, 150.0]:
			var m := await walk(long_legged(rests), flat(), speeds(top, top, 240))
			print("MEASURED walker (feet at %s of reach) at %d px/s: planted foot off its point %.4f px, slide %.4f px/frame, %.4f px above / %.4f px below the ground, most feet in air %d, mirror %.5f px" % [rests, top, m.off, m.slide, m.floating, m.sinking, m.most_in_air, m.mirror])
			expect_stands(m, "walker %s at %d px/s" % [rests, top])
			done(m)


## From a standstill the two groups (legs alternating) do not lift together: the second's first lift comes well after
## the first's. At 200 px/s this spider is past what its gait follows (its legs reach about 25 px either side of a
## home), so later steps overlap by the catch-up; no planted foot slides for it.
func test_from_a_standstill_at_200_px_s_the_groups_lift_in_turn() -> void:
	var legs := spider()
	var first := [-1, -1]
	var frame := [0]
	var m := Measure.new()
	var grounds := [ground_along(self, flat(), 1.0), ground_along(self, flat(), -1.0)]
	var case := creature(legs, Vector2(0.0, GROUND_Y - 45.0), 1.0)
	await settle_physics()
	case["stepper"].foot_lifted.connect(func(i: int) -> void:
		if first[i % 2] < 0:
			first[i % 2] = frame[0])
	for k in 60:
		frame[0] = k
		case["root"].position.x += 200.0 * DT
		case["stepper"].advance(DT)
		take(m, case, flat(), 1.0)
	print("MEASURED spider from a standstill at 200 px/s: first lifts of the two groups at frames %d and %d; most feet in the air %d of 8 (the gait overlaps past its speed), slide %.4f px/frame, planted off its point %.4f px" % [first[0], first[1], m.most_in_air, m.slide, m.off])
	expect(first[0] >= 0 and first[1] >= 0, "both groups stepped (%s)" % [first])
	expect(absi(first[1] - first[0]) >= 6, "the groups' first lifts 0.1 s apart or more (frames %s)" % [first])
	expect(m.slide <= 0.1 and m.off <= 0.5, "planted feet hold (slide %.4f, off %.4f)" % [m.slide, m.off])
	case["root"].free()
	for g: Node in grounds:
		g.free()


func test_after_the_body_stops_every_foot_steps_home_within_2_s() -> void:
	var legs := spider()
	var walking := speeds(90.0, 90.0, 137)
	walking.append_array(speeds(0.0, 0.0, 120))
	var m := await walk(legs, flat(), walking)
	var worst := 0.0
	for case: Dictionary in m.get_meta("pair"):
		var stepper: Node2D = case["stepper"]
		for i in legs.size():
			worst = maxf(worst, absf(stepper.get_home(i).x - stepper.get_foot_goal(i).x) / stepper.step_distance)
	print("MEASURED spider 2 s after stopping: the farthest foot %.3f of a step from home" % worst)
	expect(worst <= 0.25, "every foot within a quarter step of home 2 s after the body stops (%.3f)" % worst)
	expect_stands(m, "stopping")
	done(m)


func test_stairs_up_and_down() -> void:
	var m := await walk(spider(), stairs(), speeds(60.0, 60.0, 700), 100.0)
	print("MEASURED spider on 12 px stairs at 60 px/s: planted foot off its point %.4f px, slide %.4f px/frame, %.4f above / %.4f below, a knee or ankle up to %.2f px inside a step, the largest joint move %.2f px a frame, mirror %.5f px" % [m.off, m.slide, m.floating, m.sinking, m.knee_inside, m.joint_jump, m.mirror])
	expect_stands(m, "stairs")
	done(m)

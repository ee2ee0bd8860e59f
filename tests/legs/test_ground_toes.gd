extends "res://lib/test_case.gd"
## FootGrounder2D's heel and toe rays (issue 31, item 5): with one ray under the ankle a foot stays level over a bump
## ahead of it and its toe sinks in. On the same bumpy ground (a floor with round bumps 4-10 px high, real
## StaticBody2D shapes), four characters walk across: the one-ray grounder (`toe_ray = false`) and the two-ray one,
## each unmirrored and mirrored (scale.x = -1, walking the other way over the mirrored bumps). The toe's penetration
## (how far the foot bone's end is inside the ground, measured with a ray from above) is compared.

const DT := 1.0 / 60.0
const AXIS := 600.0
const STEPS := 440
const SPEED := 1.5
## Bumps either side of AXIS (mirrored): [x offset, radius, height above the floor], px.
const BUMPS := [[40.0, 12.0, 5.0], [115.0, 20.0, 8.0], [190.0, 9.0, 6.0], [270.0, 30.0, 10.0], [345.0, 16.0, 4.0]]


## The two-legged character's measures with both shins at the same angle (0.45 rad) and both ankles at the same
## height, and a foot bone whose end (the toe) lies on the soles' line in the animated pose: the toe touches the
## ground line as the heel does, so any depth measured is the grounder's.
static func toe_measures() -> Dictionary:
	var measures: Dictionary = Characters.LEG_MEASURES.duplicate(true)
	measures["poses"] = [[-0.35, 0.8], [0.35, 0.1]]
	var shin_angle := 0.45
	measures["foot_rotation"] = asin(measures["foot_height"] / measures["foot"]) - shin_angle - measures["foot_angle"]
	return measures


## A character at x = `x` walking along `facing`, grounded with the toe ray on or off, default speed limits.
func make_walker(x: float, facing: float, toe_ray: bool, line_y: float) -> Dictionary:
	var measures := toe_measures()
	var y: float = line_y - Characters.ankle_drop(measures) - measures["foot_height"]
	var case := Characters.two_legged(self, Vector2(x, y), facing, self, measures)
	var grounder := Characters.foot_grounder(case, measures)
	grounder.toe_ray = toe_ray
	case["grounder"] = grounder
	case["facing"] = facing
	return case


## The floor (top at `line_y`) and the bumps: StaticBody2D circles on layer 1, mirrored about AXIS.
func make_bumpy_ground(line_y: float) -> void:
	make_box(Vector2(AXIS, line_y + 50.0), Vector2(1000, 100))
	for bump in BUMPS:
		for side in [-1.0, 1.0]:
			var body := StaticBody2D.new()
			body.position = Vector2(AXIS + side * bump[0], line_y + bump[1] - bump[2])
			var shape := CollisionShape2D.new()
			var circle := CircleShape2D.new()
			circle.radius = bump[1]
			shape.shape = circle
			body.add_child(shape)
			add_child(body)


## How far `point` is inside the ground under it (px, 0 when above): the first surface a ray from high above meets.
func depth_in_ground(point: Vector2, line_y: float) -> float:
	var query := PhysicsRayQueryParameters2D.create(Vector2(point.x, line_y - 80.0), Vector2(point.x, line_y + 80.0))
	var hit := get_viewport().world_2d.direct_space_state.intersect_ray(query)
	return maxf(0.0, point.y - hit["position"].y) if not hit.is_empty() else 0.0


## The percentile `p` (0..1) of `values`.
static func percentile(values: Array, p: float) -> float:
	var sorted := values.duplicate()
	sorted.sort()
	return sorted[mini(int(p * sorted.size()), sorted.size() - 1)]


func test_the_toe_ray_keeps_toes_out_of_bumps_mirrored_too() -> void:
	var line_y := 400.0
	make_bumpy_ground(line_y)
	# [one ray, two rays] x [unmirrored, mirrored]; the unmirrored walk right from AXIS - 360, the mirrored left from
	# AXIS + 360, so each meets the mirror image of the other's ground.
	var walkers := []
	for toe_ray in [false, true]:
		for facing in [1.0, -1.0]:
			walkers.append(make_walker(AXIS - facing * 360.0, facing, toe_ray, line_y))
	await settle_physics()
	for case in walkers:
		for i in 2:
			var toe := Rig.bone_end(case["feet"][i])
			expect_near(toe.y, line_y, 1e-3, "the animated toe %d stands on the ground line" % i)
	var depths := [[], [], [], []]
	var mirror_worst := [0.0, 0.0]
	var ok := true
	for step in STEPS:
		for case in walkers:
			case["character"].position.x += case["facing"] * SPEED
			ok = case["grounder"].advance(DT) and ok
		for k in 4:
			for i in 2:
				depths[k].append(depth_in_ground(Rig.bone_end(walkers[k]["feet"][i]), line_y))
		for pair in 2:
			var a: Dictionary = walkers[pair * 2]
			var b: Dictionary = walkers[pair * 2 + 1]
			var points_a := PackedVector2Array()
			var points_b := PackedVector2Array()
			for i in 2:
				for bone in [a["thighs"][i], a["shins"][i]]:
					points_a.append(bone.global_position)
				for bone in [b["thighs"][i], b["shins"][i]]:
					points_b.append(bone.global_position)
				points_a.append_array([Rig.bone_end(a["shins"][i]), Rig.bone_end(a["feet"][i])])
				points_b.append_array([Rig.bone_end(b["shins"][i]), Rig.bone_end(b["feet"][i])])
			mirror_worst[pair] = maxf(mirror_worst[pair], largest_mirror_distance(points_a, points_b, AXIS))
	expect(ok, "every walker solves every step")
	var labels := ["one ray", "one ray, mirrored", "heel and toe rays", "heel and toe rays, mirrored"]
	var worst := []
	for k in 4:
		worst.append(depths[k].max())
		print("%s: toe inside the ground up to %.3f px, 90th percentile %.3f px, %d of %d samples inside by more than 0.1 px" % [labels[k], worst[k], percentile(depths[k], 0.9), depths[k].filter(func(d): return d > 0.1).size(), depths[k].size()])
	expect(worst[0] > 4.0, "one ray: a toe sinks into a bump (%s px)" % worst[0])
	expect(worst[2] < 0.25 * worst[0], "two rays: the toes stay out of the bumps (worst %s px vs %s px with one ray)" % [worst[2], worst[0]])
	expect(absf(worst[1] - worst[0]) < 1e-2 and absf(worst[3] - worst[2]) < 1e-2, "mirrored walkers sink as deep (%s, %s px)" % [worst[1], worst[3]])
	for pair in 2:
		expect(mirror_worst[pair] < 5e-3, "%s: the mirrored walker is the mirror image (worst %s px)" % [labels[pair * 2], mirror_worst[pair]])
		print("%s: the mirrored walker within %.6f px of the mirror image" % [labels[pair * 2], mirror_worst[pair]])

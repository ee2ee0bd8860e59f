extends "res://lib/test_case.gd"
## LegStepper2D with the rest of the house (issue 33 merged onto main): a CharacterWeight2D scales the body's raise and
## tilt (the legs apply it to themselves), and a stepper reparented mid-walk walks on where it was, as the grounder
## does (tests/lifecycle/test_reenter_nodes.gd). Each creature walks beside a twin that differs only in what is tested.

const DT := 1.0 / 60.0
const DROP: float = Characters.STEPPER_FOOT_DROP


func make_creature(x: float) -> Dictionary:
	var case := Characters.stepping_creature(self, Vector2(x, Characters.stepper_ground_height(x) - DROP))
	var stepper: Node2D = case["stepper"]
	stepper.tilt_body = true
	# No speed limits: the raise and tilt are the planted feet's, times the weight, every frame.
	stepper.body_speed = 0.0
	stepper.body_tilt_speed = 0.0
	return case


## Moves `case`'s root by `dx`, its y following the ground under it smoothly, then steps it.
func move_and_step(case: Dictionary, dx: float) -> void:
	var root: Node2D = case["creature"]
	root.position.x += dx
	root.position.y = lerpf(root.position.y, Characters.stepper_ground_height(root.position.x) - DROP, minf(1.0, 6.0 * DT))
	case["stepper"].advance(DT)


## Every joint of every leg and the body's origin, global.
func joints(case: Dictionary) -> PackedVector2Array:
	var points := PackedVector2Array()
	for bones: Array in case["bones"]:
		for b: Bone2D in bones:
			points.append(b.global_position)
		points.append(Rig.bone_end(bones[-1]))
	points.append(case["body"].global_position)
	return points


## Each leg's end effector, global.
func feet(case: Dictionary) -> PackedVector2Array:
	var points := PackedVector2Array()
	for bones: Array in case["bones"]:
		points.append(Rig.bone_end(bones[-1]))
	return points


func free_scene(cases: Array) -> void:
	for case in cases:
		case["creature"].free()
	for child in get_children():
		if child is StaticBody2D:
			child.free()


func test_a_character_weight_scales_the_body_and_the_legs_take_their_own() -> void:
	Characters.stepper_ground(self)
	await settle_physics()
	var full := make_creature(300.0)
	var half := make_creature(300.0)
	var authored: Vector2 = half["body"].position
	var authored_rotation: float = half["body"].rotation
	var weight: Node = ClassDB.instantiate("CharacterWeight2D")
	weight.weight = 0.5
	half["creature"].add_child(weight)
	var raise_off := 0.0
	var tilt_off := 0.0
	var most_raise := 0.0
	var most_tilt := 0.0
	var legs_apart := 0.0
	for frame in 400:
		for case in [full, half]:
			move_and_step(case, 70.0 * DT)
		var raise: float = full["stepper"].get_body_raise()
		var tilt: float = full["stepper"].get_body_tilt()
		most_raise = maxf(most_raise, absf(raise))
		most_tilt = maxf(most_tilt, absf(tilt))
		raise_off = maxf(raise_off, absf(half["stepper"].get_body_raise() - 0.5 * raise))
		tilt_off = maxf(tilt_off, absf(half["stepper"].get_body_tilt() - 0.5 * tilt))
		legs_apart = maxf(legs_apart, largest_distance(feet(half), feet(full)))
	expect(most_raise > 5.0 and most_tilt > 0.05, "the body rose and tilted on the block and the slope (%.2f px, %.4f rad)" % [most_raise, most_tilt])
	expect(raise_off < 1e-4, "under a weight of 0.5 the raise is half the full one (off by %.6f px)" % raise_off)
	expect(tilt_off < 1e-5, "under a weight of 0.5 the tilt is half the full one (off by %.7f rad)" % tilt_off)
	expect(legs_apart > 1.0, "the legs blend by the weight themselves: the feet are off the full creature's, which reach the same goals (%.2f px)" % legs_apart)
	print("MEASURED weight 0.5: raise within %.6f px, tilt within %.7f rad of half the full creature's (%.2f px, %.4f rad at most)" % [raise_off, tilt_off, most_raise, most_tilt])
	weight.weight = 0.0
	var body: Bone2D = half["body"]
	for frame in 5:
		move_and_step(half, 70.0 * DT)
	expect(absf(half["stepper"].get_body_raise()) < 1e-6 and absf(half["stepper"].get_body_tilt()) < 1e-7, "at weight 0 the body is not raised or tilted (%s, %s)" % [half["stepper"].get_body_raise(), half["stepper"].get_body_tilt()])
	expect(body.position.distance_to(authored) < 1e-4 and absf(body.rotation - authored_rotation) < 1e-6, "at weight 0 the body holds its own pose (%s, %s)" % [body.position, body.rotation])
	free_scene([full, half])


func test_a_reparented_stepper_walks_on_where_it_was() -> void:
	Characters.stepper_ground(self)
	await settle_physics()
	var moved := make_creature(300.0)
	var twin := make_creature(300.0)
	var holder := Node2D.new()
	holder.name = "Holder"
	moved["creature"].add_child(holder)
	var worst := 0.0
	var raised := 0.0
	for frame in 400:
		if frame == 150 or frame == 260:
			# Out of the tree and back under another parent at the same global transform, between two frames.
			var stepper: Node2D = moved["stepper"]
			var parent: Node = holder if frame == 150 else moved["creature"]
			stepper.get_parent().remove_child(stepper)
			parent.add_child(stepper)
		for case in [moved, twin]:
			move_and_step(case, 70.0 * DT)
		raised = maxf(raised, absf(twin["stepper"].get_body_raise()))
		worst = maxf(worst, largest_distance(joints(moved), joints(twin)))
	expect(raised > 5.0, "the body rose on the way (%.2f px)" % raised)
	expect(worst < 1e-3, "reparented twice mid-walk, every joint stays with the unmoved twin (worst %.6f px)" % worst)
	print("MEASURED reparent: within %.6f px of the unmoved twin" % worst)
	free_scene([moved, twin])

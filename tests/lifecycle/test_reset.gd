extends "res://lib/test_case.gd"
## Issue 36, item 2: after reset() a node is exactly as a freshly added one. Per class two identical characters are
## built on the same spot: one node runs WARM frames (its memories fill: a chain's warm start, the speed limit's last
## step, a blend's turns, a limb's bend side, a spring's swing, a rig's last pose, a path's fit, a grounder's
## smoothing, a stepper's feet, gait turns and body offsets), then reset() (on a helper's legs too, as the bake
## does) and the character is put back where the twin stands; the twin's node never ran. From then on both run the
## same COMPARE frames, and every bone's rotation and position (and a helper's body or hips) must be the twin's to
## 1e-6.

const WARM := 40
const COMPARE := 40
const LENGTHS := [40.0, 30.0, 25.0, 20.0]
const ANGLES := [0.4, -0.5, 0.3, -0.2]
const DT := 1.0 / 60.0


## What two twins are compared on: every Bone2D under `root`'s skeletons, its rotation and position, and `extra`
## nodes' global positions and rotations.
static func state_of(root: Node, extra: Array = []) -> PackedFloat64Array:
	var out := PackedFloat64Array()
	for bone in root.find_children("*", "Bone2D", true, false):
		out.append_array([bone.rotation, bone.position.x, bone.position.y])
	for node: Node2D in extra:
		out.append_array([node.global_position.x, node.global_position.y, node.global_rotation])
	return out


static func largest_difference(a: PackedFloat64Array, b: PackedFloat64Array) -> float:
	if a.size() != b.size():
		return INF
	var worst := 0.0
	for i in a.size():
		worst = maxf(worst, absf(a[i] - b[i]))
	return worst


## Runs `warm` for WARM frames on the first twin, resets it (`reset` callable), then `step` on both for COMPARE
## frames; returns the largest difference between the twins over those frames (`state` reads a twin).
func compare_twins(label: String, twins: Array, step: Callable, reset: Callable, state: Callable) -> void:
	for frame in WARM:
		step.call(twins[0], frame)
	var before := largest_difference(state.call(twins[0]), state.call(twins[1]))
	reset.call(twins[0])
	var worst := 0.0
	for frame in COMPARE:
		for twin in twins:
			step.call(twin, frame)
		worst = maxf(worst, largest_difference(state.call(twins[0]), state.call(twins[1])))
	expect(before > 1e-3, "%s: the warm frames moved the first twin away from the second (%s): the comparison can fail" % [label, before])
	expect(worst <= 1e-6, "%s: after reset() the node runs as a freshly added one (largest difference %s)" % [label, worst])
	print("MEASURED %s: reset vs fresh twin, largest difference %s over %d frames" % [label, worst, COMPARE])


## A character at `at` holding a 4-bone skeleton (bone angles 0.2), a target and a node of `klass` in manual mode;
## with a speed limit and a weight below 1 where the class has them, so their memories fill too.
func make_character(klass: String) -> Dictionary:
	var root := Node2D.new()
	root.position = Vector2(300, 300)
	add_child(root)
	var skeleton := Skeleton2D.new()
	root.add_child(skeleton)
	Rig.chain(skeleton, LENGTHS, ANGLES, "bone_%d", [0.2, 0.2, 0.2, 0.2])
	var bones := bones_of(skeleton)
	var target := Node2D.new()
	root.add_child(target)
	var ik: Node2D = ClassDB.instantiate(klass)
	ik.update_mode = 2
	Nodes.attach(ik, bones, target, 0, Nodes.tip_index(klass, bones.size()))
	if klass == "SpringChain2D":
		ik.gravity = Vector2(0, 900)
	else:
		ik.weight = 0.8
		ik.max_angular_speed = 6.0
	root.add_child(ik)
	return {"root": root, "target": target, "ik": ik}


func test_a_reset_chain_node_runs_as_a_fresh_one() -> void:
	for klass in Nodes.ALL:
		var twins := [make_character(klass), make_character(klass)]
		var step := func(twin: Dictionary, frame: int) -> void:
			twin["target"].position = Vector2(40, 35) + Vector2(45, 0).rotated(frame * 0.21)
			if klass == "SpringChain2D":
				twin["root"].position = Vector2(300, 300) + Vector2(30, 0).rotated(frame * 0.3)
				twin["ik"].advance(DT)
			else:
				twin["ik"].solve()
		var reset := func(twin: Dictionary) -> void:
			twin["ik"].reset()
		compare_twins(klass, twins, step, reset, func(twin: Dictionary) -> PackedFloat64Array: return state_of(twin["root"]))
		for twin in twins:
			twin["root"].free()


func test_a_reset_rig_and_path_chain_run_as_fresh_ones() -> void:
	var rigs := []
	for k in 2:
		var arms := Characters.two_armed(self, Vector2(400, 300))
		var targets := [make_target(Vector2(480, 200)), make_target(Vector2(480, 380))]
		var rig := Characters.fabrik_rig(self, arms["bones"], targets)
		rig.weight = 0.8
		rigs.append({"root": arms["skeleton"], "targets": targets, "rig": rig})
	var rig_step := func(twin: Dictionary, frame: int) -> void:
		twin["targets"][0].position = Vector2(470, 220) + Vector2(40, 0).rotated(frame * 0.17)
		twin["targets"][1].position = Vector2(470, 370) + Vector2(35, 0).rotated(-frame * 0.13)
		twin["rig"].solve()
	compare_twins("FabrikRig2D", rigs, rig_step, func(twin): twin["rig"].reset(), func(twin): return state_of(twin["root"]))
	var snakes := []
	for k in 2:
		var snake := Characters.on_path(self, Vector2(100, 300), false, [30.0, 30.0, 30.0, 30.0], [0.3, -0.3, 0.3, -0.3], 0.2, Characters.s_curve())
		snake["chain"].weight = 0.8
		snakes.append(snake)
	var path_step := func(twin: Dictionary, frame: int) -> void:
		twin["chain"].offset = 20.0 + frame * 6.0
		twin["chain"].solve()
	compare_twins("PathChain2D", snakes, path_step, func(twin): twin["chain"].reset(), func(twin): return state_of(twin["character"]))


func test_a_reset_stepper_and_its_legs_run_as_a_fresh_creature() -> void:
	Characters.stepper_ground(self)
	await settle_physics()
	var start := Vector2(40, Characters.stepper_ground_height(40) - Characters.STEPPER_FOOT_DROP)
	var creatures := []
	for k in 2:
		var case := Characters.stepping_creature(self, start)
		case["stepper"].tilt_body = true
		for leg: Node2D in case["legs"]:
			leg.solve_from_rest = false
		case["frames"] = 0
		creatures.append(case)
	var step := func(twin: Dictionary, _frame: int) -> void:
		var x: float = twin["creature"].position.x + 150.0 * DT
		twin["creature"].position = Vector2(x, Characters.stepper_ground_height(x) - Characters.STEPPER_FOOT_DROP)
		twin["stepper"].advance(DT)
	var reset := func(twin: Dictionary) -> void:
		twin["stepper"].reset()
		for leg in twin["legs"]:
			leg.reset()
		twin["creature"].position = start
	var state := func(twin: Dictionary) -> PackedFloat64Array:
		return state_of(twin["creature"], [twin["body"]])
	compare_twins("LegStepper2D", creatures, step, reset, state)
	expect(creatures[0]["stepper"].get_teleport_count() == 0, "the reset creature teleported nothing")


func test_a_reset_grounder_and_its_legs_run_as_a_fresh_character() -> void:
	var start := Vector2(200, 200)
	var line_y: float = start.y + Characters.ankle_drop() + Characters.LEG_MEASURES["foot_height"]
	# Flat, then a 20 px step down at x = 300, then a slope up: the hips' drop and the feet's tilts are smoothed.
	make_box(Vector2(150, line_y + 50.0), Vector2(300, 100))
	make_box(Vector2(450, line_y + 70.0), Vector2(300, 100))
	make_box(Vector2(700, line_y + 70.0), Vector2(200, 100), -0.3)
	await settle_physics()
	var characters := []
	for k in 2:
		var case := Characters.two_legged(self, start, 1.0, self)
		case["grounder"] = Characters.foot_grounder(case)
		characters.append(case)
	var step := func(twin: Dictionary, _frame: int) -> void:
		twin["character"].position.x += 4.0
		twin["grounder"].advance(DT)
	var reset := func(twin: Dictionary) -> void:
		twin["grounder"].reset()
		for leg in twin["legs"]:
			leg.reset()
		twin["character"].position = start
	var state := func(twin: Dictionary) -> PackedFloat64Array:
		return state_of(twin["character"], [twin["hips"]] + twin["feet"])
	compare_twins("FootGrounder2D", characters, step, reset, state)

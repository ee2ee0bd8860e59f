extends "res://lib/test_case.gd"
## Every node with Godot's SkeletonModificationStack2D on its skeleton (issue 31, item 1). A Skeleton2D with a stack
## sets every bone's transform from its cached copy each frame (Skeleton2D::execute_modifications, even for an empty
## or disabled stack, and migration leaves one behind), so a rotation a node wrote comes back a float step or two off
## (0.952237964 written, 0.952238023 read). Each "is this still what we wrote" decision must survive that: a knee must
## not flip, a chain must not drift, a spring must not chase its own output, the grounder's hips must not sink.
##
## Each case runs the same frames with no stack and with each kind of stack (empty; disabled; enabled with the
## modification migration leaves disabled; enabled with another modification on a bone no node drives) and holds the
## node to its own promise and to the run without a stack. Nodes in process mode run through the batch; the spring
## and the grounder step 1/60 s per frame (advance) so that both runs see the same time.

## The stack kinds; "none" is the run every other is compared with.
const STACKS := ["none", "empty", "disabled", "migrated", "other"]
## The kinds the other nodes run with ("migrated" only differs from "other" in its modification being disabled, which
## the trial covers).
const NODE_STACKS := ["empty", "disabled", "other"]
## The trial's targets, from the hip (px), 30 frames each.
const LEG_TARGETS := [Vector2(20, 100), Vector2(-30, 95), Vector2(40, 70), Vector2(0, 60)]
const FRAMES_PER_TARGET := 30
## The other nodes' targets hold 20 frames each (four holds): the last 10 of each show any drift.
const NODE_FRAMES_PER_TARGET := 20
const DT := 1.0 / 60.0


## A character under this test node at `at` (turned around with scale.x = -1 when `mirrored`) with a Skeleton2D and
## a spare bone "Spare" (bone angle 0.3, 20 px) right under the skeleton: the bone the "other" stack's LookAt turns.
## Returns {character, skeleton, spare, aim} (aim: the LookAt's target).
func make_character(at: Vector2, mirrored: bool) -> Dictionary:
	var character := Node2D.new()
	character.name = "Character%d" % get_child_count()
	character.position = at
	character.scale = Vector2(-1, 1) if mirrored else Vector2.ONE
	add_child(character)
	var skeleton := Skeleton2D.new()
	skeleton.name = "Skeleton"
	character.add_child(skeleton)
	var spare := Rig.bone(skeleton, "Spare", Vector2(-30, -40), 20.0, 0.3, 0.2)
	var aim := Node2D.new()
	aim.name = "Aim"
	character.add_child(aim)
	aim.position = Vector2(-80, -90)
	return {"character": character, "skeleton": skeleton, "spare": spare, "aim": aim}


## Gives `case`'s skeleton a stack of `kind` (STACKS), once its bones are in the tree.
func add_stack(case: Dictionary, kind: String) -> void:
	if kind == "none":
		return
	var skeleton: Skeleton2D = case["skeleton"]
	var stack := SkeletonModificationStack2D.new()
	skeleton.set_modification_stack(stack)
	stack.enabled = kind != "disabled"
	if kind == "empty":
		return
	var look := SkeletonModification2DLookAt.new()
	stack.add_modification(look)
	look.set_bone2d_node(skeleton.get_path_to(case["spare"]))
	look.set_target_node(skeleton.get_path_to(case["aim"]))
	# "migrated": what convert.gd leaves (the modification disabled, the stack enabled).
	look.enabled = kind != "migrated"


## Largest distance between two runs' recorded points, frame by frame.
static func largest_run_distance(a: Array, b: Array) -> float:
	var worst := 0.0
	for k in mini(a.size(), b.size()):
		worst = maxf(worst, largest_distance(a[k], b[k]))
	return worst


## Largest move of any point between consecutive frames, leaving out the frames in `skipped` (a target jump).
static func largest_frame_move(run: Array, skipped: Array) -> float:
	var worst := 0.0
	for k in range(1, run.size()):
		if not skipped.has(k):
			worst = maxf(worst, largest_distance(run[k], run[k - 1]))
	return worst


## The side the knee of (hip joint, knee, ankle) is bent to: the sign of cross(ankle - hip, knee - hip), global.
static func knee_side(points: PackedVector2Array) -> float:
	return signf((points[2] - points[0]).cross(points[1] - points[0]))


# --- The trial's leg: TwoBoneIk2D with flip_bend. ----------------------------------------------------------------

## The trial's rig: Hip (bone angle -PI/2) → Thigh (60 px, bone angle PI/2, rotation 0.4) → Shin (55 px, bone angle
## PI/2, rotation -0.8), a TwoBoneIk2D with flip_bend in process mode, its target at LEG_TARGETS[0] from the hip.
func make_trial_leg(at: Vector2, mirrored: bool, kind: String) -> Dictionary:
	var case := make_character(at, mirrored)
	var hip := Rig.bone(case["skeleton"], "Hip", Vector2.ZERO, 20.0, -PI / 2)
	var thigh := Rig.bone(hip, "Thigh", Vector2.ZERO, 60.0, PI / 2, 0.4)
	var shin := Rig.bone(thigh, "Shin", Vector2(0, 60), 55.0, PI / 2, -0.8)
	var target := Node2D.new()
	target.name = "Target"
	case["character"].add_child(target)
	target.position = LEG_TARGETS[0]
	var leg: Node2D = ClassDB.instantiate("TwoBoneIk2D")
	leg.name = "Leg"
	leg.root_bone = thigh
	leg.tip_bone = shin
	leg.target = target
	leg.flip_bend = true
	case["character"].add_child(leg)
	add_stack(case, kind)
	case.merge({"hip": hip, "thigh": thigh, "shin": shin, "target": target, "leg": leg})
	return case


## Hip, knee and ankle of the trial's leg, global.
static func leg_joints(case: Dictionary) -> PackedVector2Array:
	return PackedVector2Array([case["thigh"].global_position, case["shin"].global_position, Rig.bone_end(case["shin"])])


## The trial: the target at each of LEG_TARGETS for 30 frames. Returns the joints after each frame.
func run_trial(mirrored: bool, kind: String) -> Array:
	var case := make_trial_leg(Vector2(300 if not mirrored else 700, 200), mirrored, kind)
	var run := []
	for target_at in LEG_TARGETS:
		case["target"].position = target_at
		var before := leg_joints(case)
		for frame in FRAMES_PER_TARGET:
			await get_tree().process_frame
			run.append(leg_joints(case))
		# The leg follows each new target: runs that never moved would agree and never flip.
		expect(largest_distance(before, leg_joints(case)) > 1.0, "%s stack%s: the leg moved to the target at %s" % [kind, " (mirrored)" if mirrored else "", target_at])
	case["character"].free()
	return run


func test_the_trial_knee_never_flips_with_a_stack() -> void:
	var target_jumps := []
	for i in range(1, LEG_TARGETS.size()):
		target_jumps.append(i * FRAMES_PER_TARGET)
	for mirrored in [false, true]:
		var reference: Array = await run_trial(mirrored, "none")
		for kind in STACKS:
			var run: Array = reference if kind == "none" else await run_trial(mirrored, kind)
			var label := "%s stack%s" % [kind, " (mirrored)" if mirrored else ""]
			var flips := 0
			var jumps := 0
			for k in range(1, run.size()):
				if knee_side(run[k]) != knee_side(run[k - 1]):
					flips += 1
				if not target_jumps.has(k) and largest_distance(run[k], run[k - 1]) > 10.0:
					jumps += 1
			var apart := largest_run_distance(run, reference)
			expect(flips == 0, "%s: the knee never changes side (%d flips in %d frames)" % [label, flips, run.size() - 1])
			expect(jumps == 0, "%s: no joint jumps more than 10 px while the target holds (%d frames)" % [label, jumps])
			expect(apart < 0.01, "%s: the pose is the one without a stack (joints %.6f px apart)" % [label, apart])
			print("trial leg, %s: %d knee flips, %d jumps > 10 px in %d frames, %.6f px from the run without a stack" % [label, flips, jumps, run.size() - 1, apart])


# --- Every other node class. ----------------------------------------------------------------------------------------

## A chain of 3 bones (60, 50, 40 px; bone angles 0.3, -0.2, 0.25; drawn bent) under `case`'s skeleton with a node of
## `klass` (FabrikChain2D or CcdChain2D; `from_rest`: solve_from_rest) in process mode reaching for a target.
func add_chain(case: Dictionary, klass: String, from_rest: bool) -> void:
	var bones := Rig.chain(case["skeleton"], [60.0, 50.0, 40.0], [0.9, -0.7, 0.5], "bone_%d", [0.3, -0.2, 0.25])
	var target := Node2D.new()
	target.name = "Target"
	case["character"].add_child(target)
	var node: Node2D = ClassDB.instantiate(klass)
	node.root_bone = bones[0]
	node.tip_bone = bones[-1]
	node.target = target
	node.solve_from_rest = from_rest
	node.tolerance = 0.05
	case["character"].add_child(node)
	case.merge({"bones": bones, "targets": [target], "node": node})


## A stretching TwoBoneIk2D (stretch 0.4: the upper bone lengthens by moving the tip bone's position) on a two-bone
## leg (60, 55 px; bone angles PI/2) under `case`'s skeleton, in process mode; its targets lie beyond its reach.
func add_stretching_leg(case: Dictionary) -> void:
	var thigh := Rig.bone(case["skeleton"], "Thigh", Vector2.ZERO, 60.0, PI / 2, 0.3)
	var shin := Rig.bone(thigh, "Shin", Vector2(0, 60), 55.0, PI / 2, -0.6)
	var target := Node2D.new()
	target.name = "Target"
	case["character"].add_child(target)
	var node: Node2D = ClassDB.instantiate("TwoBoneIk2D")
	node.root_bone = thigh
	node.tip_bone = shin
	node.target = target
	node.stretch = 0.4
	case["character"].add_child(node)
	case.merge({"bones": [thigh, shin], "targets": [target], "node": node})


## A head bone (30 px, bone angle -PI/2) under `case`'s skeleton and a LookAt2D (angle_offset PI/2) in process mode.
func add_look_at(case: Dictionary) -> void:
	var neck := Rig.bone(case["skeleton"], "Neck", Vector2.ZERO, 20.0, -PI / 2, -0.2)
	var head := Rig.bone(neck, "Head", Vector2(0, -20), 30.0, -PI / 2, 0.3)
	var target := Node2D.new()
	target.name = "Target"
	case["character"].add_child(target)
	var node: Node2D = ClassDB.instantiate("LookAt2D")
	node.bone = head
	node.target = target
	node.angle_offset = PI / 2
	case["character"].add_child(node)
	case.merge({"bones": [neck, head], "targets": [target], "node": node})


## The two-armed creature (Rig.two_armed_creature) under `case`'s skeleton and a FabrikRig2D in process mode.
func add_rig(case: Dictionary) -> void:
	var bones := Rig.two_armed_creature(case["skeleton"])
	var targets := []
	for i in 2:
		var target := Node2D.new()
		target.name = "Grip%d" % i
		case["character"].add_child(target)
		targets.append(target)
	var node := Characters.fabrik_rig(case["character"], bones, targets, 0)
	case.merge({"bones": bones, "targets": targets, "node": node})


## A 4-bone tail (30, 26, 22, 18 px; bone angle 0.25) under `case`'s skeleton and a SpringChain2D under gravity in
## manual mode (stepped 1/60 s per frame).
func add_spring(case: Dictionary) -> void:
	var bones := Rig.chain(case["skeleton"], [30.0, 26.0, 22.0, 18.0], [1.2, 0.3, -0.2, 0.4], "tail_%d", [0.25, 0.25, 0.25, 0.25])
	var node: Node2D = ClassDB.instantiate("SpringChain2D")
	node.update_mode = 2
	node.root_bone = bones[0]
	node.tip_bone = bones[-1]
	node.gravity = Vector2(0, 980)
	node.stiffness = 60.0
	node.damping = 6.0
	case["character"].add_child(node)
	case.merge({"bones": bones, "targets": [], "node": node})


## Where the targets of `case` are at `frame`: each goes through four places, 30 frames each, within reach.
static func target_at(case: Dictionary, index: int, frame: int) -> Vector2:
	var hold: int = frame / NODE_FRAMES_PER_TARGET
	if case["node"].get_class() == "TwoBoneIk2D":
		# 115 px of leg, 161 px with the stretch: these are 125-140 px away.
		return [Vector2(60, 110), Vector2(-40, 120), Vector2(90, 95), Vector2(20, 138)][hold % 4]
	if case["node"].get_class() == "FabrikRig2D":
		# The creature's spine points up; its left hand reaches to the left of it, its right hand to the right.
		var grips := [[Vector2(-60, -110), Vector2(-40, -130), Vector2(-80, -90), Vector2(-50, -100)],
			[Vector2(70, -90), Vector2(60, -110), Vector2(90, -70), Vector2(50, -100)]]
		return grips[index][hold % 4]
	var places := [Vector2(70, 60), Vector2(40, 100), Vector2(110, 20), Vector2(20, 110)]
	return places[hold % places.size()]


## Each bone's origin and the last bone's end, global.
static func points_of(case: Dictionary) -> PackedVector2Array:
	return joints_of(case["bones"])


## Runs `build` (one of the add_* above) on a character with a stack of `kind` for 80 frames: targets moved at the
## start of each frame, a spring stepped 1/60 s and the character swayed. Returns the points after each frame.
func run_node(build: Callable, kind: String, mirrored: bool) -> Array:
	var case := make_character(Vector2(300 if not mirrored else 700, 300), mirrored)
	build.call(case)
	add_stack(case, kind)
	var run := []
	for frame in 4 * NODE_FRAMES_PER_TARGET:
		for i in case["targets"].size():
			case["targets"][i].position = target_at(case, i, frame)
		if case["node"].get_class() == "SpringChain2D":
			case["character"].position.x += 2.0 * sin(frame * 0.15) * (-1.0 if mirrored else 1.0)
			case["node"].advance(DT)
		await get_tree().process_frame
		run.append(points_of(case))
	case["character"].free()
	return run


## The largest move of any point from one frame to the next over the last 10 frames of each of the four holds.
static func holding_drift(run: Array) -> float:
	var drift := 0.0
	for hold in 4:
		drift = maxf(drift, largest_frame_move(run.slice(hold * NODE_FRAMES_PER_TARGET + 10, (hold + 1) * NODE_FRAMES_PER_TARGET), []))
	return drift


func test_every_node_keeps_its_promises_with_a_stack() -> void:
	var builds := {
		"FabrikChain2D": func(c): add_chain(c, "FabrikChain2D", false),
		"FabrikChain2D solve_from_rest": func(c): add_chain(c, "FabrikChain2D", true),
		"CcdChain2D": func(c): add_chain(c, "CcdChain2D", false),
		"CcdChain2D solve_from_rest": func(c): add_chain(c, "CcdChain2D", true),
		"FabrikChain2D weight 0.5": func(c):
			add_chain(c, "FabrikChain2D", false)
			c["node"].weight = 0.5,
		"TwoBoneIk2D stretch": func(c): add_stretching_leg(c),
		"LookAt2D": func(c): add_look_at(c),
		"FabrikRig2D": func(c): add_rig(c),
		"SpringChain2D": func(c): add_spring(c),
	}
	for name in builds:
		for mirrored in [false, true]:
			var reference: Array = await run_node(builds[name], "none", mirrored)
			for kind in NODE_STACKS:
				var run: Array = await run_node(builds[name], kind, mirrored)
				var label := "%s, %s stack%s" % [name, kind, " (mirrored)" if mirrored else ""]
				var apart := largest_run_distance(run, reference)
				# While the targets hold, a node moves no more than it does without a stack (a rig still settling
				# toward its compromise moves a little in both); the spring swings, so it is held to the reference only.
				var drift := holding_drift(run) if name != "SpringChain2D" else 0.0
				var reference_drift := holding_drift(reference) if name != "SpringChain2D" else 0.0
				expect(apart < 0.01, "%s: the same poses as without a stack (joints %.6f px apart over 80 frames)" % [label, apart])
				expect(drift <= reference_drift + 1e-3, "%s: no drift while the targets hold (largest move per frame %.6f px; %.6f px without a stack)" % [label, drift, reference_drift])
				print("%s: %.6f px from the run without a stack, largest move per frame while holding %.6f px (%.6f px without a stack)" % [label, apart, drift, reference_drift])


# --- FootGrounder2D's legs and hips. --------------------------------------------------------------------------------

## Characters.two_legged with its grounder (manual, stepped 1/60 s) on a flat floor 6 px under the animation's ground
## line and a 10 px step, walking 1.5 px per frame.
func run_grounder(kind: String, mirrored: bool) -> Array:
	var at := Vector2(300 if not mirrored else 700, 200)
	var legs := Characters.two_legged(self, at, -1.0 if mirrored else 1.0, self)
	var spare := Rig.bone(legs["skeleton"], "Spare", Vector2(-30, -40), 20.0, 0.3, 0.2)
	var aim := Node2D.new()
	legs["character"].add_child(aim)
	var case := {"character": legs["character"], "skeleton": legs["skeleton"], "spare": spare, "aim": aim}
	var grounder := Characters.foot_grounder(legs)
	var line_y: float = at.y + Characters.ankle_drop() + Characters.LEG_MEASURES["foot_height"]
	var side := -1.0 if mirrored else 1.0
	var floor := make_box(Vector2(at.x, line_y + 6.0 + 50.0), Vector2(400, 100))
	var step := make_box(Vector2(at.x + side * 90.0, line_y - 4.0 + 50.0), Vector2(60, 100))
	add_stack(case, kind)
	await settle_physics()
	var run := []
	var grounded := 0
	for frame in 120:
		legs["character"].position.x += 1.5 * side
		if grounder.advance(DT):
			grounded += 1
		await get_tree().process_frame
		var points := PackedVector2Array([legs["hips"].global_position])
		for i in 2:
			points.append_array(PackedVector2Array([legs["thighs"][i].global_position, legs["shins"][i].global_position, Rig.bone_end(legs["shins"][i]), Rig.bone_end(legs["feet"][i])]))
		run.append(points)
	expect(grounded == 120, "grounder, %s stack: every frame grounded both legs (%d of 120)" % [kind, grounded])
	for node in [legs["character"], floor, step]:
		node.free()
	for node in legs["legs"]:
		if is_instance_valid(node):
			node.free()
	return run


func test_the_grounders_legs_and_hips_keep_their_promises_with_a_stack() -> void:
	for mirrored in [false, true]:
		var reference: Array = await run_grounder("none", mirrored)
		for kind in NODE_STACKS:
			var run: Array = await run_grounder(kind, mirrored)
			var label := "%s stack%s" % [kind, " (mirrored)" if mirrored else ""]
			var apart := largest_run_distance(run, reference)
			var flips := 0
			for k in range(1, run.size()):
				for leg in 2:
					var joints := PackedVector2Array([run[k][1 + leg * 4], run[k][2 + leg * 4], run[k][3 + leg * 4]])
					var before := PackedVector2Array([run[k - 1][1 + leg * 4], run[k - 1][2 + leg * 4], run[k - 1][3 + leg * 4]])
					flips += 1 if knee_side(joints) != knee_side(before) else 0
			expect(flips == 0, "grounder, %s: no knee changes side (%d flips)" % [label, flips])
			expect(apart < 0.01, "grounder, %s: legs, feet and hips as without a stack (%.6f px apart over 120 frames)" % [label, apart])
			print("grounder, %s: %d knee flips, %.6f px from the run without a stack" % [label, flips, apart])

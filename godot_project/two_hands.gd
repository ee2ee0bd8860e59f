extends "res://common/demo.gd"
## Two creatures hold one great sword each with both hands: one FabrikRig2D per creature solves both arms and the
## shared three-bone spine together. The right creature is the left one mirrored (scale.x = -1 on its skeleton). A
## toggle swaps the rig for two stacked FabrikChain2D on the same bones, which fight over the spine.

const Rig := preload("res://common/rig.gd")
## Each creature's hips, and the sword's grips along its blade (px, sword space).
const HIPS := [Vector2(300, 470), Vector2(660, 470)]
const GRIPS := [Vector2(0, 0), Vector2(34, 0)]
const SKIN := Color(0.55, 0.72, 0.5)
const DARK := Color(0.3, 0.42, 0.3)

var rigs: Array[Node2D] = []
var stacked: Array[Node2D] = []
var creatures: Array = []
var swords: Array[Node2D] = []
var grips: Array = []
var use_stacked := false


func demo_title() -> String:
	return "Two hands: FabrikRig2D"


func demo_help() -> String:
	return "Each creature holds its sword with both hands: one FabrikRig2D bends the spine and both arms together. The sword follows the mouse (or your finger); the right creature is the mirror image (scale.x = -1). Turn on \"Stacked chains\" to see two FabrikChain2D on the same spine fight: the second solve undoes the first, and one hand lets go."


func _demo_ready() -> void:
	for side in 2:
		var skeleton := Skeleton2D.new()
		skeleton.name = "Skeleton%d" % side
		skeleton.position = HIPS[side]
		skeleton.scale = Vector2(-1.6, 1.6) if side == 1 else Vector2(1.6, 1.6)
		add_child(skeleton)
		var bones := _creature(skeleton)
		creatures.append(bones)
		var sword := Node2D.new()
		sword.name = "Sword%d" % side
		add_child(sword)
		swords.append(sword)
		var pair := []
		for g in GRIPS.size():
			var grip := Node2D.new()
			grip.name = "Grip%d" % g
			grip.position = GRIPS[g]
			sword.add_child(grip)
			pair.append(grip)
		grips.append(pair)
		var rig: Node2D = ClassDB.instantiate("FabrikRig2D")
		rig.name = "FabrikRig2D%d" % side
		rig.root_bone = bones[0]
		rig.effector_tips = [bones[4], bones[6]]
		rig.effector_targets = pair
		add_child(rig)
		rig.max_iterations = 32
		# The spine bends only so far; the chest turns a little on it.
		rig.set_angle_limits(0, -PI / 2 - 0.6, -PI / 2 + 0.6)
		rig.set_angle_limits(1, -0.5, 0.5)
		rig.set_angle_limits(2, -0.4, 0.4)
		rigs.append(rig)
		for k in 2:
			var chain: Node2D = ClassDB.instantiate("FabrikChain2D")
			chain.name = "Stacked%d_%d" % [side, k]
			chain.enabled = false
			chain.root_bone = bones[0]
			chain.tip_bone = bones[4 + 2 * k]
			chain.target = pair[k]
			chain.max_iterations = 32
			chain.set_angle_limits(0, -PI / 2 - 0.6, -PI / 2 + 0.6)
			chain.set_angle_limits(1, -0.5, 0.5)
			chain.set_angle_limits(2, -0.4, 0.4)
			add_child(chain)
			stacked.append(chain)
	add_toggle("Stacked chains (they fight)", false, _use_stacked)


## A creature: spine_0, spine_1, chest (carrying both shoulders), two two-bone arms, bone angles != 0; drawn with
## strokes. Returns the bones in the rig's order.
func _creature(skeleton: Node2D) -> Array:
	var s0 := Rig.bone(skeleton, "Spine0", Vector2.ZERO, 40.0, 0.0, -PI / 2)
	var s1 := Rig.bone(s0, "Spine1", Vector2(40, 0), 36.0, 0.0, 0.1)
	var chest := Rig.bone(s1, "Chest", Vector2(36, 0), 22.0, 0.0, -0.1)
	var l0 := Rig.bone(chest, "ArmL0", Vector2(16, -13), 34.0, 0.15, -1.8)
	var l1 := Rig.bone(l0, "ArmL1", Vector2(34, 0), 32.0, -0.15, -0.9)
	var r0 := Rig.bone(chest, "ArmR0", Vector2(16, 13), 34.0, -0.15, 1.8)
	var r1 := Rig.bone(r0, "ArmR1", Vector2(34, 0), 32.0, 0.15, 0.9)
	var bones := [s0, s1, chest, l0, l1, r0, r1]
	Rig.limb(s0, 22.0, SKIN)
	Rig.limb(s1, 20.0, SKIN)
	Rig.limb(chest, 18.0, SKIN)
	Rig.disc(chest, Vector2(34, 0), 16.0, SKIN, 1)
	Rig.disc(chest, Vector2(38, 6), 3.0, Color(0.1, 0.1, 0.1), 2)
	for arm in [[l0, l1, -1], [r0, r1, 1]]:
		Rig.limb(arm[0], 9.0, DARK if arm[2] < 0 else SKIN, -1 if arm[2] < 0 else 1)
		Rig.limb(arm[1], 8.0, DARK if arm[2] < 0 else SKIN, -1 if arm[2] < 0 else 1)
	# Legs, not solved: two strokes under the hips.
	for leg in [-10.0, 10.0]:
		var line := Line2D.new()
		line.points = PackedVector2Array([Vector2(0, leg * 0.6), Vector2(-42, leg * 1.6)])
		line.width = 11.0
		line.default_color = DARK
		line.begin_cap_mode = Line2D.LINE_CAP_ROUND
		line.end_cap_mode = Line2D.LINE_CAP_ROUND
		s0.add_child(line)
	return bones


func _use_stacked(on: bool) -> void:
	use_stacked = on
	for rig in rigs:
		rig.enabled = not on
	for chain in stacked:
		chain.enabled = on


func auto_aim(t: float) -> Vector2:
	return Vector2(385, 330) + Vector2(sin(t * 0.8) * 45.0, cos(t * 1.3) * 50.0)


func _demo_process(_delta: float) -> void:
	var at := aim()
	var swing := sin(time * 1.1) * 0.7 - 0.5
	# The left sword follows the aim; the right one is its mirror image about the middle between the creatures.
	var middle := (HIPS[0].x + HIPS[1].x) * 0.5
	var local := at - HIPS[0]
	local = local.limit_length(150.0)
	swords[0].position = HIPS[0] + local
	swords[0].rotation = swing
	swords[0].scale = Vector2.ONE
	swords[1].position = Vector2(2.0 * middle - swords[0].position.x, swords[0].position.y)
	# Mirrored: a reflection about the vertical line, so the grips swap sides exactly as the creature does.
	swords[1].rotation = -swing
	swords[1].scale = Vector2(-1, 1)
	var worst := 0.0
	for node in rigs:
		worst = maxf(worst, node.last_error)
	var chains_error := 0.0
	for chain in stacked:
		chains_error = maxf(chains_error, _hand_error(chain))
	if use_stacked:
		set_status("stacked chains: worst hand %.1f px off its grip" % chains_error)
	else:
		set_status("FabrikRig2D: worst hand %.3f px off its grip, %d passes" % [worst, rigs[0].last_iterations])


func _hand_error(chain: Node2D) -> float:
	var tip: Bone2D = chain.tip_bone
	var end := tip.global_transform * (Vector2.from_angle(tip.get_bone_angle()) * tip.get_length())
	return end.distance_to(chain.target.global_position)


func _draw() -> void:
	draw_rect(Rect2(0, 500, 960, 60), Color(0.12, 0.13, 0.17))


func _draw_overlay(canvas: Node2D) -> void:
	for sword in swords:
		var x := sword.global_transform.x.normalized()
		var y := sword.global_transform.y.normalized() * signf(sword.global_transform.determinant())
		var hilt := sword.global_position - x * 14.0
		var guard := sword.global_position + x * 46.0
		var tip := sword.global_position + x * 190.0
		canvas.draw_line(hilt, guard, Color(0.45, 0.3, 0.2), 8.0, true)
		canvas.draw_line(guard - y * 16.0, guard + y * 16.0, Color(0.75, 0.65, 0.35), 6.0, true)
		canvas.draw_colored_polygon(PackedVector2Array([guard - y * 6.0, tip, guard + y * 6.0]), Color(0.82, 0.86, 0.92))
	for pair in grips:
		for grip in pair:
			draw_marker(canvas, grip.global_position, 5.0, Color(0.4, 0.85, 1.0))


func get_ik_nodes() -> Array:
	return [] if use_stacked else rigs


func summary() -> String:
	return "worst hand %.3f px" % maxf(rigs[0].last_error, rigs[1].last_error)


## The right creature's pose is the mirror image of the left one's (its skeleton is mirrored and its sword too).
func mirror_check() -> float:
	var middle := (HIPS[0].x + HIPS[1].x) * 0.5
	var worst := 0.0
	for i in creatures[0].size():
		var p: Vector2 = creatures[0][i].global_position
		var q: Vector2 = creatures[1][i].global_position
		worst = maxf(worst, Vector2(2.0 * middle - p.x, p.y).distance_to(q))
	return worst

extends Node
## Base of every test file: assertions that record failures instead of stopping, and builders for
## Skeleton2D/Bone2D scenes. The runner makes one instance per `test_*` method and adds it to the tree.

## The one Bone2D chain builder, shared with the demo project (a link to godot_project/common/rig.gd).
const Rig := preload("res://lib/rig.gd")
## The one list of node classes.
const Nodes := preload("res://lib/node_classes.gd")
## The logger every test method gets as `error_log` (named apart from the `ErrorLog` some test files preload).
const ErrorLogScript := preload("res://lib/error_log.gd")

var failures: PackedStringArray = []
## What Godot logs while this test method runs: the one logger of a test file, added when the test enters the tree
## and removed when it leaves.
var error_log: ErrorLogScript = ErrorLogScript.new()


func _enter_tree() -> void:
	OS.add_logger(error_log)


func _exit_tree() -> void:
	OS.remove_logger(error_log)


func expect(condition: bool, message: String) -> bool:
	if not condition:
		failures.append(message)
	return condition


func expect_near(actual: float, expected: float, tolerance: float, message: String) -> bool:
	var ok := is_finite(actual) and absf(actual - expected) <= tolerance
	return expect(ok, "%s: got %s, expected %s ± %s" % [message, actual, expected, tolerance])


func expect_vec_near(actual: Vector2, expected: Vector2, tolerance: float, message: String) -> bool:
	var ok := actual.is_finite() and actual.distance_to(expected) <= tolerance
	return expect(ok, "%s: got %s, expected %s (off by %s, tolerance %s)" % [message, actual, expected, actual.distance_to(expected), tolerance])


## A Skeleton2D under this test node holding a chain of bones along `angles` (local rotations) with
## `lengths`; returns the skeleton. The bones are named bone_0 .. bone_<n-1>, each the parent of the next.
func make_chain(lengths: Array, angles: Array = [], skeleton_scale := Vector2.ONE, position := Vector2(400, 300)) -> Skeleton2D:
	var skeleton := Skeleton2D.new()
	skeleton.name = "Skeleton"
	skeleton.position = position
	skeleton.scale = skeleton_scale
	add_child(skeleton)
	Rig.chain(skeleton, lengths, angles)
	return skeleton


func bones_of(skeleton: Node) -> Array[Bone2D]:
	var out: Array[Bone2D] = []
	var node: Node = skeleton
	while node.get_child_count() > 0:
		var next: Node = null
		for child in node.get_children():
			if child is Bone2D:
				next = child
				break
		if next == null:
			break
		out.append(next)
		node = next
	return out


## The end of a bone along its bone_angle: the chain's end effector when it is the tip.
func bone_end(bone: Bone2D) -> Vector2:
	return bone.global_transform * (Vector2.from_angle(bone.get_bone_angle()) * bone.get_length())


func make_target(at: Vector2) -> Node2D:
	var target := Node2D.new()
	target.name = "Target"
	add_child(target)
	target.global_position = at
	return target


func rotations_of(bones: Array) -> PackedFloat32Array:
	var out := PackedFloat32Array()
	for bone in bones:
		out.append(bone.rotation)
	return out


func all_finite(bones: Array) -> bool:
	for bone in bones:
		if not is_finite(bone.rotation) or not bone.global_position.is_finite():
			return false
	return true


## A node of class `klass` (any of `Nodes.ALL`) driving `skeleton`'s chain from bone `root_index` to `tip_index`
## toward `target` (a SpringChain2D has none and ignores it), in manual mode unless told otherwise.
func make_ik(klass: String, skeleton: Node, target: Node2D, root_index := 0, tip_index := -1, mode := 2) -> Node2D:
	var bones := bones_of(skeleton)
	var ik: Node2D = ClassDB.instantiate(klass)
	ik.name = klass
	ik.update_mode = mode
	Nodes.attach(ik, bones, target, root_index, tip_index if tip_index >= 0 else bones.size() + tip_index)
	add_child(ik)
	return ik


## Each bone's global origin, then the tip's end.
func joints_of(bones: Array) -> PackedVector2Array:
	var out := PackedVector2Array()
	for bone in bones:
		out.append(bone.global_position)
	out.append(bone_end(bones[-1]))
	return out


## Largest relative change of any segment length between two joint lists.
func worst_length_change(before: PackedVector2Array, after: PackedVector2Array) -> float:
	var worst := 0.0
	for i in before.size() - 1:
		var a := before[i].distance_to(before[i + 1])
		var b := after[i].distance_to(after[i + 1])
		if a > 1e-3:
			worst = maxf(worst, absf(a - b) / a)
	return worst


func reach_of(bones: Array) -> float:
	var joints := joints_of(bones)
	var total := 0.0
	for i in joints.size() - 1:
		total += joints[i].distance_to(joints[i + 1])
	return total


## A character (Node2D) with a Skeleton2D off its origin (so a flip moves the chain's root) and a chain of bones of
## `lengths` and `rotations`, each with `bone_angle`, its children placed along it: the rig the spring tests hang a
## SpringChain2D on. Returns {"character", "skeleton", "bones"}.
func make_tail_character(at: Vector2, lengths: Array, rotations: Array, bone_angle: float) -> Dictionary:
	var character := Node2D.new()
	character.name = "Character%d" % get_child_count()
	character.position = at
	add_child(character)
	var skeleton := Skeleton2D.new()
	skeleton.name = "Skeleton"
	skeleton.position = Vector2(12, -7)
	character.add_child(skeleton)
	var bones := Rig.chain(skeleton, lengths, rotations)
	for i in bones.size():
		bones[i].set_bone_angle(bone_angle)
		bones[i].position = Vector2.ZERO if i == 0 else Vector2.from_angle(bone_angle) * lengths[i - 1]
		bones[i].rest = bones[i].transform
	return {"character": character, "skeleton": skeleton, "bones": bones}


## A StaticBody2D box (layer 1) of `size` centred at `center`, turned by `rotation`.
func make_box(center: Vector2, size: Vector2, rotation := 0.0) -> StaticBody2D:
	var body := StaticBody2D.new()
	body.position = center
	body.rotation = rotation
	var shape := CollisionShape2D.new()
	var rect := RectangleShape2D.new()
	rect.size = size
	shape.shape = rect
	body.add_child(shape)
	add_child(body)
	return body


## Lets the physics server take new shapes in.
func settle_physics() -> void:
	for i in 2:
		await get_tree().physics_frame

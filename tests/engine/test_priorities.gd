extends "res://lib/test_case.gd"
## The run-time process priorities the README states (issue 31, item 6: "When the nodes run"): every node class at
## 100, the spring at 110, physics priorities alike, a priority of the user's own kept; and what that means for a
## script: a target it moves in `_process` at the default priority is reached in the same frame, and a script above
## 110 reads the solved pose of that frame.

## The README's table.
const IK_PRIORITY := 100
const SPRING_PRIORITY := 110


## Moves `target` right by `step` px in every `_process`, at the default priority (0), as a game script does.
class Mover extends Node:
	var target: Node2D
	var step := 3.0

	func _process(_delta: float) -> void:
		target.position.x += step


## Records, at the end of every frame (priority 200), how far the chain's end is from the target.
class Reader extends Node:
	var tip: Bone2D
	var target: Node2D
	var distances: Array[float] = []

	func _init() -> void:
		process_priority = 200

	func _process(_delta: float) -> void:
		distances.append(Rig.bone_end(tip).distance_to(target.global_position))


func test_every_class_takes_its_priority_and_keeps_the_users() -> void:
	var classes: Array = Nodes.ALL + Nodes.RIGS + ["FootGrounder2D"]
	for klass in classes:
		var expected := SPRING_PRIORITY if klass == "SpringChain2D" else IK_PRIORITY
		var node: Node2D = ClassDB.instantiate(klass)
		add_child(node)
		expect(node.process_priority == expected, "%s: process priority %d (got %d)" % [klass, expected, node.process_priority])
		expect(node.process_physics_priority == expected, "%s: physics priority %d (got %d)" % [klass, expected, node.process_physics_priority])
		var own: Node2D = ClassDB.instantiate(klass)
		own.process_priority = 5
		own.process_physics_priority = -3
		add_child(own)
		expect(own.process_priority == 5 and own.process_physics_priority == -3, "%s: the user's priorities are kept (%d, %d)" % [klass, own.process_priority, own.process_physics_priority])
		error_log.take()  # Unset bones and targets: each node says so once.
		node.free()
		own.free()


func test_a_target_moved_by_a_script_is_reached_in_the_same_frame() -> void:
	for klass in Nodes.CHAINS + ["TwoBoneIk2D"]:
		for side in [1.0, -1.0]:
			var case := Characters.with_node(self, klass, Vector2(400, 300), side < 0.0, func(skeleton: Node) -> Array:
				return Rig.chain(skeleton, [40.0, 35.0], [0.5, 0.6], "bone_%d", [0.2, 0.2]))
			var target: Node2D = case["target"]
			target.position = Vector2(30, 40)
			var mover := Mover.new()
			mover.target = target
			mover.step = 1.5
			add_child(mover)
			var reader := Reader.new()
			reader.tip = case["bones"][-1]
			reader.target = target
			add_child(reader)
			await wait_frames(20)
			var label := "%s, %s" % [klass, "mirrored" if side < 0.0 else "unmirrored"]
			var worst: float = reader.distances.slice(2).max()
			# Within the chain's tolerance (exact for the two-bone limb); solved one frame late, the end would trail the
			# target by its 1.5 px step.
			var tolerance: float = case["ik"].tolerance if "tolerance" in case["ik"] else 0.0
			expect(worst < tolerance + 0.01, "%s: the end is on the target the script moved in that frame (worst %s px, tolerance %s)" % [label, worst, tolerance])
			print("%s: the end within %.4f px of the target a priority-0 script moves 1.5 px a frame" % [label, worst])
			for node in [mover, reader, case["character"]]:
				node.free()

extends "res://lib/test_case.gd"
## The batch path (issue 22): nodes with the default process priority are solved together by one hidden node
## (Reach2DBatcher), and `Reach2D.solve_all()` solves many nodes by hand. Every promise of the per-node path holds:
## after animation in the same frame, in tree order (a LookAt2D below a chain sees the chain's result), after scripts
## that move targets in `_process`, pause/process_mode, manual mode; and the result is the per-node result, bit for
## bit, mirrored rigs included.

const LENGTHS := [30.0, 25.0, 22.0, 18.0, 15.0]
const ANGLES := [0.3, -0.4, 0.35, -0.25, 0.2]
## A process priority of the user's own: such a node is not batched and processes itself (after the batcher, which
## runs at 100).
const OWN_PRIORITY := 101


## Moves its targets every `_process`, at the default priority 0 (before the IK nodes, like a game script).
class Mover extends Node:
	var targets: Array = []
	var frame := 0

	func _process(_delta: float) -> void:
		frame += 1
		for target in targets:
			target.position += Vector2(cos(frame * 0.31), sin(frame * 0.23)) * 4.0


## Switches its nodes to UPDATE_PHYSICS and moves their targets in its first `_physics_process` (priority 0, before
## the batch's physics pass, after the last process pass), as a game script or a signal may.
class Switcher extends Node:
	var nodes: Array = []
	var targets: Array = []
	var done := false

	func _physics_process(_delta: float) -> void:
		if done:
			return
		done = true
		for i in nodes.size():
			nodes[i].update_mode = 1
			targets[i].position += Vector2(0, 15)


## Records, in the physics tick after the batch's (priority 1000), how far each tip is from its target.
class PhysicsWatcher extends Node:
	var tips: Array = []
	var targets: Array = []
	var distances: Array = []

	func _physics_process(_delta: float) -> void:
		if distances.is_empty():
			for i in tips.size():
				distances.append(tips[i].call().distance_to(targets[i].global_position))


## A chain as users have them (LENGTHS, ANGLES): every third bone, from the root, has bone_angle 0.25 (its child stays
## on its x axis), optionally mirrored (scale.x = -1). Returns the skeleton.
func make_chain_with_bone_angles(mirrored: bool, position: Vector2) -> Skeleton2D:
	var skeleton := make_chain(LENGTHS, ANGLES, Vector2(-1, 1) if mirrored else Vector2.ONE, position)
	var bones := bones_of(skeleton)
	for i in range(0, bones.size(), 3):
		bones[i].set_bone_angle(0.25)
	return skeleton


func batcher() -> Node:
	for child in get_tree().root.get_children(true):
		if child.get_class() == "Reach2DBatcher":
			return child
	return null


## Two identical characters per (class, mirrored): one batched (default priority), one with a priority of its own
## (per node). Returns [batched nodes, per-node nodes, all bones batched, all bones per node, targets].
func make_twins(mode: int) -> Dictionary:
	var batched := []
	var own := []
	var targets := []
	var x := 100.0
	for klass in Nodes.ALL:
		for mirrored in [false, true]:
			for twin in 2:
				var skeleton := make_chain_with_bone_angles(mirrored, Vector2(x, 300))
				var target := make_target(skeleton.global_position + Vector2(-60 if mirrored else 60, 50))
				var ik := make_ik(klass, skeleton, target, 0, Nodes.tip_index(klass, LENGTHS.size()), mode)
				if klass == "SpringChain2D":
					ik.gravity = Vector2(0, 600)
				if Nodes.has_pole(klass):
					var pole := make_target(skeleton.global_position + Vector2(0, -80))
					ik.pole = pole
					targets.append(pole)
				if twin == 1:
					# Out of the tree and back with a priority of its own: no longer batched.
					remove_child(ik)
					ik.process_priority = OWN_PRIORITY
					ik.process_physics_priority = OWN_PRIORITY
					add_child(ik)
					own.append(ik)
				else:
					batched.append(ik)
				targets.append(target)
			x += 120.0
	return {"batched": batched, "own": own, "targets": targets}


func bones_driven_by(ik: Node2D) -> Array:
	var out := []
	if "bone" in ik:
		out.append(ik.bone)
		return out
	var bone: Node = ik.tip_bone
	while bone != null:
		out.push_front(bone)
		if bone == ik.root_bone:
			break
		bone = bone.get_parent()
	return out


## The largest difference between the twins' bone rotations (0 when bit for bit the same).
func worst_twin_difference(twins: Dictionary) -> float:
	var worst := 0.0
	for i in twins["batched"].size():
		var a := bones_driven_by(twins["batched"][i])
		var b := bones_driven_by(twins["own"][i])
		for j in a.size():
			worst = maxf(worst, absf(a[j].rotation - b[j].rotation))
	return worst


func test_the_batcher_runs_default_priority_nodes_and_not_the_others() -> void:
	var twins := make_twins(0)
	await wait_frames(3)
	var found := batcher()
	if not expect(found != null, "a Reach2DBatcher is an internal child of the root"):
		return
	expect(found.get_process_priority() == 100, "the batcher runs at the IK nodes' priority (%d)" % found.get_process_priority())
	for ik in twins["batched"]:
		if ik is SpringChain2D:
			expect(ik.is_processing(), "the spring (priority 110) processes itself")
		else:
			expect(not ik.is_processing(), "%s with the default priority is run by the batcher, not its own _process" % ik.name)
	for ik in twins["own"]:
		expect(ik.is_processing(), "%s with a priority of its own processes itself" % ik.name)
	for ik in twins["batched"] + twins["own"]:
		expect(ik.last_error >= 0.0, "%s solved" % ik.name)
	# Leaving the tree gives a node its own callbacks back; coming back hands them to the batcher again.
	var ik: Node2D = twins["batched"][0]
	var parent := ik.get_parent()
	parent.remove_child(ik)
	expect(ik.is_processing(), "a node out of the tree has its own _process back")
	parent.add_child(ik)
	expect(not ik.is_processing(), "back in the tree it is batched again")


func test_batched_equals_per_node_every_frame_with_scripts_moving_targets() -> void:
	# Process and physics mode; the mover (priority 0) moves every target in _process before the IK runs.
	for mode in [0, 1]:
		var twins := make_twins(mode)
		var mover := Mover.new()
		mover.targets = twins["targets"]
		add_child(mover)
		move_child(mover, 0)
		var worst := 0.0
		var worst_error := 0.0
		for frame in 40:
			if mode == 1:
				await get_tree().physics_frame
			else:
				await get_tree().process_frame
			worst = maxf(worst, worst_twin_difference(twins))
			for ik in twins["batched"]:
				if ik is FabrikChain2D:
					# The chain solved for the target as the mover left it in this very frame: the end's distance to
					# the target now is what the solve reported (the mover moves it 4 px a frame).
					var distance: float = bone_end(ik.tip_bone).distance_to(ik.target.global_position)
					worst_error = maxf(worst_error, absf(distance - ik.last_error))
		var label := "physics" if mode == 1 else "process"
		expect(worst == 0.0, "%s mode: batched and per-node poses are the same, bit for bit, over 40 frames (worst %s rad)" % [label, worst])
		if mode == 0:
			expect(worst_error < 1e-3, "process mode: the chain solved for the target the script moved this frame (worst %s px off its own report)" % worst_error)
		print("batched vs per node, %s mode, 10 classes x mirrored: worst rotation difference %s rad; FABRIK worst end-to-target off its report %s px" % [label, worst, worst_error])
		for child in get_children():
			child.queue_free()
		await get_tree().process_frame


## An animated skeleton: a FABRIK chain on bones 0..2 and a LookAt2D on bone 3, below the chain's tip. The player
## comes last in the tree; the look-at node is a child of the chain node (nested) and joins the batch first.
func make_animated_character(mirrored: bool, position: Vector2, own_priority: bool) -> Dictionary:
	var skeleton := make_chain_with_bone_angles(mirrored, position)
	skeleton.name = "Skeleton%d" % get_child_count()
	var bones := bones_of(skeleton)
	var target := make_target(skeleton.global_position + Vector2(-40 if mirrored else 40, 45))
	var look_target := make_target(skeleton.global_position + Vector2(-90 if mirrored else 90, -60))
	var chain: Node2D = ClassDB.instantiate("FabrikChain2D")
	chain.name = "Chain"
	chain.target = target
	chain.root_bone = bones[0]
	chain.tip_bone = bones[2]
	var look: Node2D = ClassDB.instantiate("LookAt2D")
	look.name = "Look"
	look.target = look_target
	look.bone = bones[3]
	if own_priority:
		for node in [chain, look]:
			node.process_priority = OWN_PRIORITY
			node.process_physics_priority = OWN_PRIORITY
	# The look-at enters the tree (and joins the queue) before the chain: the queue must still run the chain first,
	# as the tree has it.
	var holder := Node2D.new()
	holder.name = "Holder%d" % get_child_count()
	add_child(holder)
	holder.add_child(look)
	holder.add_child(chain)
	holder.move_child(chain, 0)
	var player := Animations.turning_chain("pose", skeleton.name, ANGLES, 0.7)
	add_child(player)
	player.play("pose")
	return {"chain": chain, "look": look, "bones": bones, "player": player}


func test_order_after_animation_and_look_at_below_a_chain() -> void:
	var characters := []
	for mirrored in [false, true]:
		# Twins at the same place: the batched one and one with a priority of its own.
		characters.append(make_animated_character(mirrored, Vector2(300 + 300 * int(mirrored), 300), false))
		characters.append(make_animated_character(mirrored, Vector2(300 + 300 * int(mirrored), 300), true))
	var worst_chain := 0.0
	var worst_look := 0.0
	var worst_twin := 0.0
	var animated_differs := true
	for frame in 30:
		await get_tree().process_frame
		if frame < 3:
			continue
		for c in characters:
			var chain: Node2D = c["chain"]
			var look: Node2D = c["look"]
			var bones: Array = c["bones"]
			# The visible pose is the IK pose on top of this frame's animation.
			worst_chain = maxf(worst_chain, bone_end(bones[2]).distance_to(chain.target.global_position))
			# The look-at bone points at its target from where the chain's result put it.
			var look_bone: Bone2D = bones[3]
			var direction: Vector2 = look_bone.global_transform * Vector2.from_angle(look_bone.get_bone_angle()) - look_bone.global_position
			var wanted: Vector2 = look.target.global_position - bones[3].global_position
			worst_look = maxf(worst_look, absf(direction.angle_to(wanted)))
			var player: AnimationPlayer = c["player"]
			var animated: float = player.get_animation("pose").value_track_interpolate(0, player.current_animation_position)
			animated_differs = animated_differs and not is_equal_approx(bones[0].rotation, animated)
		for pair in [[characters[0], characters[1]], [characters[2], characters[3]]]:
			for i in 4:
				worst_twin = maxf(worst_twin, absf(pair[0]["bones"][i].rotation - pair[1]["bones"][i].rotation))
	expect(animated_differs, "the IK changed the animated pose every frame")
	expect(worst_chain < 0.6, "the chain reaches its target on top of this frame's animation (worst %s px)" % worst_chain)
	expect(worst_look < 1e-3, "the LookAt2D below the chain aims from the chain's result of the same frame (worst %s rad)" % worst_look)
	expect(worst_twin == 0.0, "batched and per-node characters are bit for bit the same (worst %s rad)" % worst_twin)
	print("animated characters, batched: chain worst %s px, look-at below it worst %s rad, vs per node %s rad" % [worst_chain, worst_look, worst_twin])


func test_process_mode_disabled_and_manual_mode_are_kept() -> void:
	var skeleton := make_chain_with_bone_angles(false, Vector2(300, 300))
	var target := make_target(Vector2(360, 350))
	var ik := make_ik("FabrikChain2D", skeleton, target, 0, -1, 0)
	ik.process_mode = Node.PROCESS_MODE_DISABLED
	var skeleton2 := make_chain_with_bone_angles(true, Vector2(600, 300))
	var target2 := make_target(Vector2(540, 350))
	var manual := make_ik("FabrikChain2D", skeleton2, target2, 0, -1, 2)
	var before := rotations_of(bones_of(skeleton))
	var before_manual := rotations_of(bones_of(skeleton2))
	await wait_frames(5)
	expect(rotations_of(bones_of(skeleton)) == before, "a node with process_mode DISABLED is not solved by the batcher")
	expect(ik.last_error < 0.0, "it never solved")
	expect(rotations_of(bones_of(skeleton2)) == before_manual, "a manual node is not solved by the batcher")
	expect(manual.solve(), "solve() still solves a manual node")
	expect(bone_end(bones_of(skeleton2)[-1]).distance_to(target2.global_position) < 0.6, "and reaches")
	ik.process_mode = Node.PROCESS_MODE_INHERIT
	await get_tree().process_frame
	await get_tree().process_frame
	expect(ik.last_error >= 0.0, "once processing again, it is solved")


func test_solve_all_equals_solve_one_by_one() -> void:
	var twins := make_twins(2)
	var worst := 0.0
	var counts_ok := true
	for frame in 30:
		for t in twins["targets"]:
			t.position += Vector2(cos(frame * 0.4), sin(frame * 0.3)) * 5.0
		var written: int = Reach2D.solve_all(twins["batched"])
		counts_ok = counts_ok and written == twins["batched"].size()
		for ik in twins["own"]:
			ik.solve()
		worst = maxf(worst, worst_twin_difference(twins))
		await get_tree().process_frame
	expect(counts_ok, "solve_all returned how many nodes wrote their bones (all %d)" % twins["batched"].size())
	expect(worst == 0.0, "solve_all gives the same rotations as solve() on each, bit for bit, mirrored rigs included (worst %s)" % worst)
	for ik in twins["batched"]:
		expect(ik.last_error >= 0.0, "%s recorded its solve" % ik.name)


## The two-armed creature (Characters.two_armed) with a FabrikRig2D reaching both hands for two targets;
## `own_priority` gives the rig a priority of its own (not batched).
func make_creature_rig(mirrored: bool, position: Vector2, own_priority: bool, mode: int) -> Dictionary:
	var bones: Array = Characters.two_armed(self, position, Vector2(-1, 1) if mirrored else Vector2.ONE)["bones"]
	var side := -1.0 if mirrored else 1.0
	var ta := make_target(position + Vector2(-50 * side, -70))
	var tb := make_target(position + Vector2(50 * side, -70))
	var rig := Characters.fabrik_rig(self, bones, [ta, tb], mode, 5 if own_priority else 0)
	return {"rig": rig, "bones": bones, "targets": [ta, tb]}


func test_fabrik_rig2d_is_batched_and_solve_all_takes_it() -> void:
	var batched := [make_creature_rig(false, Vector2(200, 300), false, 0), make_creature_rig(true, Vector2(500, 300), false, 0)]
	var own := [make_creature_rig(false, Vector2(200, 300), true, 0), make_creature_rig(true, Vector2(500, 300), true, 0)]
	var worst := 0.0
	for frame in 30:
		for group in [batched, own]:
			for c in group:
				for t in c["targets"]:
					t.position += Vector2(cos(frame * 0.4), sin(frame * 0.3)) * 2.0
		await get_tree().process_frame
		for k in 2:
			for i in batched[k]["bones"].size():
				worst = maxf(worst, absf(batched[k]["bones"][i].rotation - own[k]["bones"][i].rotation))
	expect(not batched[0]["rig"].is_processing(), "a default-priority FabrikRig2D is run by the batcher")
	expect(own[0]["rig"].is_processing(), "a FabrikRig2D with a priority of its own processes itself")
	expect(batched[0]["rig"].last_error >= 0.0 and batched[0]["rig"].last_error <= batched[0]["rig"].tolerance, "the batched rig reaches (%s px)" % batched[0]["rig"].last_error)
	expect(worst == 0.0, "batched and per-node rigs are the same, bit for bit, mirrored included (worst %s rad)" % worst)
	# By hand: solve_all over rigs equals solve() on each.
	var by_hand := [make_creature_rig(false, Vector2(200, 600), false, 2), make_creature_rig(true, Vector2(500, 600), false, 2)]
	var one_by_one := [make_creature_rig(false, Vector2(200, 600), false, 2), make_creature_rig(true, Vector2(500, 600), false, 2)]
	var manual_worst := 0.0
	for frame in 10:
		var written: int = Reach2D.solve_all([by_hand[0]["rig"], by_hand[1]["rig"]])
		expect(written == 2, "solve_all wrote both rigs (%d)" % written)
		for c in one_by_one:
			c["rig"].solve()
		for k in 2:
			for i in by_hand[k]["bones"].size():
				manual_worst = maxf(manual_worst, absf(by_hand[k]["bones"][i].rotation - one_by_one[k]["bones"][i].rotation))
	expect(manual_worst == 0.0, "solve_all on rigs equals solve() on each (worst %s rad)" % manual_worst)
	print("FabrikRig2D batched vs own: %s rad; solve_all vs solve: %s rad" % [worst, manual_worst])


func test_solve_all_skips_what_is_not_a_node_with_one_error() -> void:
	var skeleton := make_chain_with_bone_angles(false, Vector2(300, 300))
	var target := make_target(Vector2(360, 350))
	var ik := make_ik("FabrikChain2D", skeleton, target)
	var other := Node2D.new()
	add_child(other)
	error_log.take()
	var written := 0
	for i in 5:
		written = Reach2D.solve_all([ik, other, null, 3])
	expect(written == 1, "the one node solved (%d)" % written)
	expect(error_log.count("solve_all") == 1, "one error for five bad calls (%s)" % [error_log.take()])
	Reach2D.solve_all([ik])
	Reach2D.solve_all([other])
	expect(error_log.count("solve_all") == 1, "reported again after a good call (%s)" % [error_log.take()])
	# A node freed after a call, in the same place: skipped, never used through the remembered handle.
	var doomed := make_ik("CcdChain2D", make_chain_with_bone_angles(true, Vector2(600, 300)), make_target(Vector2(540, 350)))
	expect(Reach2D.solve_all([ik, doomed]) == 2, "both solve")
	doomed.free()
	error_log.take()
	expect(Reach2D.solve_all([ik, doomed]) == 1, "the freed one is skipped")
	expect(error_log.count("solve_all") == 1, "with one error (%s)" % [error_log.take()])
	expect(error_log.take_panics().is_empty(), "no panic")


func test_solve_all_allocates_nothing_per_call() -> void:
	if not ClassDB.class_exists("Reach2DDebug"):
		expect(false, "the debug build registers Reach2DDebug")
		return
	var twins := make_twins(2)
	var nodes: Array = twins["batched"]
	for i in 5:
		Reach2D.solve_all(nodes)
	var before: int = ClassDB.class_call_static("Reach2DDebug", "node_heap_allocations")
	var everything: int = ClassDB.class_call_static("Reach2DDebug", "rust_heap_allocations")
	var solved := 0
	for i in 30:
		for t in twins["targets"]:
			t.position += Vector2(2, 1)
		solved += Reach2D.solve_all(nodes)
	var used: int = ClassDB.class_call_static("Reach2DDebug", "node_heap_allocations") - before
	expect(used == 0, "30 calls of solve_all on %d nodes made %d heap allocations in the nodes' code" % [nodes.size(), used])
	expect(nodes.size() > 0 and solved == 30 * nodes.size(), "every call solved every node (%d of %d)" % [solved, 30 * nodes.size()])
	var layer: int = ClassDB.class_call_static("Reach2DDebug", "rust_heap_allocations") - everything
	print("solve_all, debug build: %.1f allocations per node per call in all Rust code (godot-rust's conversions included)" % (layer / (30.0 * nodes.size())))


func test_the_prefetched_address_is_the_engine_object() -> void:
	if not ClassDB.class_exists("Reach2DDebug"):
		expect(false, "the debug build registers Reach2DDebug")
		return
	var skeleton := make_chain_with_bone_angles(false, Vector2(300, 300))
	var objects: Array = [skeleton, make_target(Vector2.ZERO)]
	objects.append_array(bones_of(skeleton))
	for object in objects:
		expect(ClassDB.class_call_static("Reach2DDebug", "object_address_is_engine_object", object), "the address godot-rust gives for %s is the engine's Object*" % object.name)


## A node switched to UPDATE_PHYSICS after the batch's last process pass (here in a physics callback before the
## batch's physics pass) solves in that very physics tick: the batch's physics pass, which visits only members it saw
## in physics mode, visits them all after a mode change.
func test_a_node_switched_to_physics_mode_solves_in_the_next_physics_tick() -> void:
	var switcher := Switcher.new()
	var watcher := PhysicsWatcher.new()
	watcher.process_physics_priority = 1000
	var x := 200.0
	for klass in ["FabrikChain2D", "CcdChain2D", "TwoBoneIk2D"]:
		for mirrored in [false, true]:
			var skeleton := make_chain_with_bone_angles(mirrored, Vector2(x, 300))
			var target := make_target(skeleton.global_position + Vector2(-30 if mirrored else 30, 20))
			var tip := Nodes.tip_index(klass, LENGTHS.size())
			var ik := make_ik(klass, skeleton, target, 0, tip, 0)
			switcher.nodes.append(ik)
			switcher.targets.append(target)
			var bones := bones_of(skeleton)
			var tip_bone: Bone2D = bones[tip if tip >= 0 else bones.size() - 1]
			watcher.tips.append(func(): return bone_end(tip_bone))
			watcher.targets.append(target)
			x += 150.0
	await wait_frames(3)
	add_child(switcher)
	move_child(switcher, 0)
	add_child(watcher)
	for i in 30:
		await get_tree().physics_frame
		if not watcher.distances.is_empty():
			break
	if not expect(watcher.distances.size() == switcher.nodes.size(), "the watcher saw the physics tick after the switch"):
		return
	for i in watcher.distances.size():
		expect(watcher.distances[i] < 0.6, "%s (%d) reached its moved target in the physics tick it was switched in (%.3f px away)" % [switcher.nodes[i].get_class(), i, watcher.distances[i]])

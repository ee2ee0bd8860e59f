extends "res://lib/test_case.gd"
## Issue 19: no script action can make a node touch a freed bone. A node's chain cache is kept current by the tip's
## `tree_entered` signal; a script can keep that signal from arriving (`set_block_signals(true)` on the tip, or
## disconnecting the node's connection) and then restructure the chain and free a middle bone. Every route to
## restructure a chain is tried here for every node class, each with the signal intact, blocked and disconnected.
## Before the fix the chains read the freed bone: a panic, then Godot died with signal 11 in libreach2d.so.

## How the tip's `tree_entered` is kept from the node.
const SILENCES := ["intact", "blocked", "disconnected"]
## How the chain is restructured before a middle bone is freed (or the skeleton taken out of the tree).
const ROUTES := ["root_moved_old_parent_freed", "reparent_alive", "reparent", "remove_add", "move_child", "free", "queue_free", "skeleton_out", "skeleton_out_in"]


## Keeps the tip's `tree_entered` from reaching anything connected to it.
func silence(tip: Bone2D, how: String) -> void:
	match how:
		"blocked":
			tip.set_block_signals(true)
		"disconnected":
			for connection in tip.get_signal_connection_list("tree_entered"):
				tip.disconnect("tree_entered", connection["callable"])


## Restructures `bones` (0..4, tip 4) by `route`, freeing bone 1 where the route frees; returns what to wait for.
func restructure(skeleton: Skeleton2D, bones: Array, route: String, root_index: int) -> bool:
	match route:
		"root_moved_old_parent_freed":
			# The root's parent places the chain: the node caches it too. Found by the scene fuzzer.
			var old_parent: Node = bones[root_index].get_parent()
			var holder := Node2D.new()
			holder.name = "holder"
			add_child(holder)
			bones[root_index].reparent(holder, false)
			old_parent.free()
		"reparent_alive":
			# Nothing freed: the tip is simply no longer under the root, which the node must see.
			bones[2].reparent(skeleton, false)
		"reparent":
			bones[2].reparent(skeleton, false)
			bones[1].free()
		"remove_add":
			bones[1].remove_child(bones[2])
			skeleton.add_child(bones[2])
			bones[1].free()
		"move_child":
			# Same parent, new order: the chain is unchanged, then the middle bone's child moves up and it is freed.
			bones[0].move_child(bones[1], 0)
			bones[2].reparent(bones[0], false)
			bones[0].move_child(bones[2], 0)
			bones[1].free()
		"free":
			# The tip goes with the freed bone's subtree only if it is below it: move it up first.
			bones[2].reparent(bones[0], false)
			bones[1].free()
		"queue_free":
			bones[2].reparent(bones[0], false)
			bones[1].queue_free()
			return true
		"skeleton_out":
			remove_child(skeleton)
		"skeleton_out_in":
			remove_child(skeleton)
			add_child(skeleton)
	return false


func test_restructured_chain_never_touches_a_freed_bone() -> void:
	for klass in Nodes.ALL:
		for how in SILENCES:
			for route in ROUTES:
				await run_case(klass, how, route)


func run_case(klass: String, how: String, route: String) -> void:
	var label := "%s, tip signal %s, %s" % [klass, how, route]
	var skeleton := make_chain([40.0, 30.0, 25.0, 20.0, 15.0], [0.3, -0.4, 0.5, -0.2, 0.3])
	var bones := bones_of(skeleton)
	var target := make_target(skeleton.global_position + Vector2(60, 40))
	# LookAt2D drives the tip itself; TwoBoneIk2D the last two bones (so a middle bone is above its root).
	var root_index := 4 if Nodes.single_bone(klass) else (3 if klass == "TwoBoneIk2D" else 0)
	var ik := make_ik(klass, skeleton, target, root_index, 4)
	for i in 3:
		ik.solve()
	silence(bones[4], how)
	if restructure(skeleton, bones, route, root_index):
		await get_tree().process_frame
	for i in 3:
		ik.solve()
	if route == "reparent_alive" and root_index == 0:
		expect(not ik.solve(), "%s: the node sees the tip is no longer under the root" % label)
	var live := bones.filter(func(b): return is_instance_valid(b))
	expect(all_finite(live), "%s: no NaN in any bone" % label)
	if is_instance_valid(bones[4]):
		bones[4].set_block_signals(false)
	if is_instance_valid(skeleton) and skeleton.get_parent() == null:
		add_child(skeleton)
	# Signals back: the node must solve the chain as it is now, or say why not.
	for i in 2:
		ik.solve()
	expect(all_finite(bones.filter(func(b): return is_instance_valid(b))), "%s: no NaN after" % label)
	for node in [ik, target, skeleton, get_node_or_null("holder")]:
		if is_instance_valid(node):
			node.free()

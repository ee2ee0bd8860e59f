extends SceneTree
## CopyTransform2D's cost (issue 32): K characters (Characters.with_followers, half mirrored with scale.x = -1), each
## with three copies in the global space (two eyes follow the head, a sword the hand, rotation and position with
## offsets). Each frame the torso, head, arm and hand turn and the engine brings their global transforms up to date
## (untimed: either way pays it the same), then one of, taking turns in blocks:
##   solve_all  Reach2D.solve_all(copies): the batch path by hand, the next nodes prefetched;
##   solve()    each copy's solve() called from a GDScript loop;
##   gdscript   the same copy done in GDScript: read the source's and the parent's global transforms, turn the offset
##              direction by the source's handedness, write the bone's rotation and position (the least a copy does).
## Reports the median time per copy of each, their spread over blocks, the ratio gdscript / solve_all block by block
## (same process, neighbouring in time), the largest difference between the poses the node and the GDScript loop
## write, and the heap allocations of the node's frames. Needs the release build with the `bench` feature (`cargo
## xtask bench` builds and places it); `-- --quick` runs a few characters.

const Characters := preload("res://lib/characters.gd")
const Timing := preload("res://bench/timing.gd")

var big := 400
var blocks := 40
var frames_per_block := 2


func _initialize() -> void:
	if "--quick" in OS.get_cmdline_user_args():
		big = 8
		blocks = 2
		frames_per_block = 2
	Timing.start_watchdog(self, 600.0)
	_run.call_deferred()


## Turns every character's sources a little (frame `frame`) and reads each source's and each follower's parent's
## global transform, so the engine's own update of the moved bones is done before the timing starts: untimed.
func move(characters: Array, jobs: Array, frame: int) -> void:
	var a := 0.3 * sin(frame * 0.07)
	for c in characters:
		var b: Dictionary = c["bones"]
		b["torso"].rotation = 0.05 + 0.2 * a
		b["head"].rotation = 0.1 - a
		b["upper"].rotation = 0.9 + a
		b["fore"].rotation = 0.6 - 0.5 * a
	for job in jobs:
		var _source: Transform2D = job[0].global_transform
		var _parent: Transform2D = job[1].global_transform


## The copy in GDScript, for every copy in `jobs` ([source, parent, bone, position offset, rotation offset]).
func copy_in_gdscript(jobs: Array) -> void:
	for job in jobs:
		var t: Transform2D = job[0].global_transform
		var inverse: Transform2D = job[1].global_transform.affine_inverse()
		var bone: Bone2D = job[2]
		var axis := inverse.basis_xform(t.x.rotated(job[4] * signf(t.determinant())))
		bone.rotation = axis.angle() - (PI if bone.scale.x < 0.0 else 0.0)
		bone.position = inverse * (t * job[3])


func _run() -> void:
	var characters := []
	var copies := []
	var jobs := []
	for k in big:
		var at := Vector2(60 + (k % 40) * 50.0, 150 + (k / 40) * 160.0)
		var c := Characters.with_followers(root, at, k % 2 == 1, 2)
		c["player"].stop()
		characters.append(c)
		for copy in c["copies"].values():
			copies.append(copy)
			jobs.append([copy.source, copy.bone.get_parent(), copy.bone, copy.position_offset, copy.rotation_offset])
	await process_frame
	# The node and the GDScript loop put the bones in the same place (the comparison is fair).
	var worst_difference := 0.0
	for frame in 3:
		move(characters, jobs, frame)
		Reach2D.solve_all(copies)
		var by_node := []
		for copy in copies:
			by_node.append(copy.bone.global_transform)
		copy_in_gdscript(jobs)
		for i in copies.size():
			var t: Transform2D = copies[i].bone.global_transform
			worst_difference = maxf(worst_difference, t.origin.distance_to(by_node[i].origin) + absf(t.x.angle_to(by_node[i].x)))
	var methods := ["solve_all", "solve", "gdscript"]
	var times := {"solve_all": [], "solve": [], "gdscript": []}
	var allocations := [0, 0]
	var node_frames := 0
	var frame := 0
	for block in blocks + 1:
		for method in methods:
			var nodes_before: int = ClassDB.class_call_static("Reach2DDebug", "node_heap_allocations")
			var rust_before: int = ClassDB.class_call_static("Reach2DDebug", "rust_heap_allocations")
			var usec := 0
			for f in frames_per_block:
				move(characters, jobs, frame + f)
				var start := Time.get_ticks_usec()
				match method:
					"solve_all":
						Reach2D.solve_all(copies)
					"solve":
						for copy in copies:
							copy.solve()
					"gdscript":
						copy_in_gdscript(jobs)
				usec += Time.get_ticks_usec() - start
			if block > 0:
				if method == "solve_all":
					allocations[0] += ClassDB.class_call_static("Reach2DDebug", "node_heap_allocations") - nodes_before
					allocations[1] += ClassDB.class_call_static("Reach2DDebug", "rust_heap_allocations") - rust_before
					node_frames += frames_per_block
				times[method].append(usec / float(frames_per_block * copies.size()))
		frame += frames_per_block
	print("# CopyTransform2D, %d copies on %d characters (half mirrored), %d blocks of %d frames, %s" % [copies.size(), big, blocks, frames_per_block, Engine.get_version_info()["string"]])
	Timing.print_table_head("| per copy per frame | median us | spread (min-max of blocks) us |")
	print("| Reach2D.solve_all(copies) (the batch path) | %.3f | %.3f-%.3f |" % [Timing.stats(times["solve_all"])["median"], times["solve_all"].min(), times["solve_all"].max()])
	print("| copy.solve() from a GDScript loop | %.3f | %.3f-%.3f |" % [Timing.stats(times["solve"])["median"], times["solve"].min(), times["solve"].max()])
	print("| the same copy written in GDScript | %.3f | %.3f-%.3f |" % [Timing.stats(times["gdscript"])["median"], times["gdscript"].min(), times["gdscript"].max()])
	var ratios := []
	for i in times["gdscript"].size():
		ratios.append(times["gdscript"][i] / times["solve_all"][i])
	print("| ratio GDScript / solve_all, block by block (same process) | %.2fx | %.2f-%.2fx |" % [Timing.stats(ratios)["median"], ratios.min(), ratios.max()])
	print("| largest difference between the node's and the GDScript loop's pose (px + rad) | %.7f | |" % worst_difference)
	print("| heap allocations of solve_all over %d frames x %d copies (after the first block): nodes' code / all Rust code | %d / %d | |" % [node_frames, copies.size(), allocations[0], allocations[1]])
	print("REACH2D_DONE")
	quit(0)

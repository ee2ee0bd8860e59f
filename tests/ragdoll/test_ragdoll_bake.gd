extends "res://lib/test_case.gd"
## Ragdoll2D's bake (issue 40): a fall recorded into an Animation (start_recording .. stop_recording) replays
## through an AnimationPlayer within 0.01 px of the live fall, frame by frame.

const Ragdolls := preload("res://lib/ragdolls.gd")


func test_a_baked_fall_replays_the_live_fall() -> void:
	make_box(Vector2(400, 800), Vector2(2000, 400))
	var figure := Ragdolls.figure(self, Vector2(400, 420))
	figure["skeleton"].rotation = 0.3
	var bones: Array = figure["bones"]
	var ragdoll := Ragdolls.ragdoll(self, figure)
	await settle_physics()
	var animation := Animation.new()
	ragdoll.start_recording(animation, self)
	ragdoll.start()
	var live := []
	for tick in 90:
		live.append(Ragdolls.points_of(bones))
		await get_tree().physics_frame
	live.append(Ragdolls.points_of(bones))
	ragdoll.stop_recording()
	ragdoll.stop(0.0)
	ragdoll.free()
	expect(animation.get_track_count() == 13, "12 rotation tracks and the root's position: %d" % animation.get_track_count())
	var player := AnimationPlayer.new()
	add_child(player)
	player.root_node = player.get_path_to(self)
	var library := AnimationLibrary.new()
	library.add_animation("fall", animation)
	player.add_animation_library("", library)
	player.play("fall")
	player.pause()
	var worst := 0.0
	var dt := 1.0 / Engine.physics_ticks_per_second
	for k in live.size():
		player.seek(k * dt, true)
		worst = maxf(worst, largest_distance(live[k], Ragdolls.points_of(bones)))
	expect(worst <= 0.01, "the baked fall replays the live one within 0.01 px: %.6f px" % worst)
	var moved := largest_distance(live[0], live[live.size() - 1])
	expect(moved > 50.0, "the fall moved the figure: %.1f px" % moved)
	print("ragdoll bake: %d frames, replay within %.6f px of the live fall (which moved %.1f px)" % [live.size(), worst, moved])

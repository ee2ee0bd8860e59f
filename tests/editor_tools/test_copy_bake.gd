extends "res://lib/test_case.gd"
## Baking a CopyTransform2D into animation keys (addons/reach2d/editor/bake.gd keys what it writes, issue 32): the
## baked animation, replayed with the copy disabled, puts the bone where the copy did at every key (rotation, position,
## and scale when it copies the scale), on a plain and a flipped character; a property the copy does not write gets no
## track.

const Bake := preload("res://addons/reach2d/editor/bake.gd")
const STEP := 1.0 / 20.0


## The sword's values after the original animation at each of `times`, then `copy.solve()`.
func copied_values(c: Dictionary, copy: Node2D, times: PackedFloat64Array) -> Array:
	var player: AnimationPlayer = c["player"]
	player.assigned_animation = "move"
	var out := []
	for t in times:
		player.seek(t, true)
		copy.solve()
		var bone: Bone2D = copy.bone
		out.append([bone.rotation, bone.position, bone.scale])
	return out


func test_a_baked_copy_replays_what_it_wrote() -> void:
	for flipped in [false, true]:
		for with_scale in [false, true]:
			var label := "flipped=%s scale=%s" % [flipped, with_scale]
			var c := Characters.with_followers(self, Vector2(400, 300), flipped, 2)
			var player: AnimationPlayer = c["player"]
			player.stop()
			var copy: Node2D = c["copies"]["Sword"]
			copy.scale_amount = 1.0 if with_scale else 0.0
			copy.scale_offset = Vector2(0.25, 0.1)
			player.get_animation("move").step = STEP
			var result := Bake.bake_to_animation(copy, player, &"move", STEP, &"move_baked")
			if not expect(result["ok"], "%s: the bake succeeded (%s)" % [label, result]):
				c["character"].free()
				continue
			var baked: Animation = player.get_animation("move_baked")
			var path := "Skeleton/Torso/Sword"
			for property in ["rotation", "position", "scale"]:
				var keyed := baked.find_track(NodePath(path + ":" + property), Animation.TYPE_VALUE) >= 0
				var written: bool = property != "scale" or with_scale
				expect(keyed == written, "%s: %s keyed: %s" % [label, property, keyed])
			var times := PackedFloat64Array()
			var track := baked.find_track(NodePath(path + ":rotation"), Animation.TYPE_VALUE)
			for key in baked.track_get_key_count(track):
				times.append(baked.track_get_key_time(track, key))
			var wanted := copied_values(c, copy, times)
			copy.enabled = false
			player.assigned_animation = "move_baked"
			var worst := [0.0, 0.0, 0.0]
			for k in times.size():
				player.seek(times[k], true)
				var sword: Bone2D = c["bones"]["sword"]
				worst[0] = maxf(worst[0], absf(angle_difference(sword.rotation, wanted[k][0])))
				worst[1] = maxf(worst[1], sword.position.distance_to(wanted[k][1]))
				worst[2] = maxf(worst[2], sword.scale.distance_to(wanted[k][2]))
			expect(worst[0] < 1e-4 and worst[1] < 1e-3 and worst[2] < 1e-5, "%s: the baked keys replay the copy (worst rotation %s rad, position %s px, scale %s)" % [label, worst[0], worst[1], worst[2]])
			print("copy bake %s: %d keys, replay worst %.8f rad, %.6f px, scale %.8f" % [label, times.size(), worst[0], worst[1], worst[2]])
			c["character"].free()


func test_a_copy_that_writes_no_rotation_bakes_no_rotation() -> void:
	var c := Characters.with_followers(self, Vector2(400, 300), false, 2)
	var player: AnimationPlayer = c["player"]
	player.stop()
	var copy: Node2D = c["copies"]["EyeL"]
	copy.rotation_amount = 0.0
	var result := Bake.bake_to_animation(copy, player, &"move", STEP, &"eye_baked")
	expect(result["ok"], "the bake succeeded (%s)" % [result])
	var baked: Animation = player.get_animation("eye_baked")
	expect(baked.find_track(NodePath("Skeleton/Torso/EyeL:rotation"), Animation.TYPE_VALUE) < 0, "no rotation track")
	expect(baked.find_track(NodePath("Skeleton/Torso/EyeL:position"), Animation.TYPE_VALUE) >= 0, "a position track")
	c["character"].free()

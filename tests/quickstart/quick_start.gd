extends Node2D


func _ready() -> void:
	var leg := TwoBoneIk2D.new()
	leg.root_bone = $Skeleton2D/Thigh
	leg.tip_bone = $Skeleton2D/Thigh/Shin
	leg.target = $Target
	add_child(leg)

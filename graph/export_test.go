package graph

// LabelBox is the box labelRect gives a label drawn by SVG with its text
// element at (x, y): SVG puts the baseline 4 below the box's centre.
func LabelBox(x, y float64, text string) [4]float64 {
	r := labelRect(point{x, y - 4}, text)
	return [4]float64{r.x0, r.y0, r.x1, r.y1}
}

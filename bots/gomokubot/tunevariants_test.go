package gomokubot

func tuneVariants() []variant {
	var out []variant
	v := variant{name: "lmr", tune: defaultTuning()}
	v.tune.lmr = true
	out = append(out, v)
	v = variant{name: "leafvcf200", tune: defaultTuning()}
	v.tune.leafVCF = 200
	out = append(out, v)
	v = variant{name: "tempo30", tune: defaultTuning()}
	v.tune.tempoPct = 30
	out = append(out, v)
	v = variant{name: "breadth24", tune: defaultTuning()}
	v.tune.breadth = 24
	out = append(out, v)
	return out
}

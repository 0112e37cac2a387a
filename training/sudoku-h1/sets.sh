# The hard Sudoku sets of docs/sudoku-hard.md, made here (deterministic for their seeds; each
# skipped when present), sourced by train-hard.sh and evaluate.sh from the repository root.
d=runs/sudoku-hard
mkdir -p "$d"
make_set() {
  [ -s "$d/$1.csv" ] || node bin/sjd.js --threads 1 data sudoku --out "$d/$1.csv" --count "$2" --min-nodes "$3" --seed "$4"
}
make_set guess-valid 300 1 301
make_set hard20-valid 300 20 302
make_set guess-train 50000 1 201
make_set hard20-train 20000 20 202
make_set guess-test 2000 1 101
make_set hard20-test 2000 20 102
make_set hard50-test 1000 50 103

// The hazard report's verdict of an arm against uniform (src/lab/text/hazard-report.ts):
// the difference in points, every seed on one side or an overlap, the mean +- std criterion in
// either direction (an arm far below uniform read "does not clear" before, as one level with it), and
// no verdict from one seed on both sides (a 0.2-point difference between two single runs said
// "clears uniform" before, with both spreads taken as 0).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { hazardVerdict } from '../src/lab/text/hazard-report.js';

test('hazard verdict: one seed each gives none; seeds on one side and the criterion otherwise', () => {
  assert.equal(hazardVerdict([], 'x', [0.2]), 'not measured yet');
  assert.equal(hazardVerdict([0.2], 'x', []), 'not measured yet');
  assert.equal(
    hazardVerdict([0.196], 'frequency, 4x', [0.195]),
    'frequency, 4x +0.1 points against uniform (1 and 1 seeds): no verdict from one seed each (the seed-to-seed spread is not known)',
  );
  // three seeds a side, apart by more than both spreads
  assert.equal(
    hazardVerdict([0.25, 0.24, 0.26], 'anti', [0.19, 0.2, 0.21]),
    'anti +5.0 points against uniform (3 and 3 seeds): every seed above every uniform seed; clears uniform under the mean +- std criterion',
  );
  // overlapping seeds
  assert.match(
    hazardVerdict([0.2, 0.23, 0.18], 'freq', [0.19, 0.2, 0.21]),
    /\+0\.3 points .*: the seeds overlap uniform; within uniform under the mean \+- std criterion \(neither/,
  );
  // one learned seed against three uniform ones: judged against uniform's spread
  assert.match(
    hazardVerdict([0.05], 'deployed', [0.19, 0.2, 0.21]),
    /^deployed -15\.0 points against uniform \(1 and 3 seeds\): every seed below every uniform seed; falls below uniform under the mean \+- std criterion$/,
  );
  // three seeds below, apart by more than both spreads; and a mean below whose spread reaches uniform's
  assert.match(
    hazardVerdict([0.15, 0.16, 0.17], 'freq', [0.19, 0.2, 0.21]),
    /^freq -4\.0 points .*: every seed below every uniform seed; falls below uniform/,
  );
  assert.match(
    hazardVerdict([0.13, 0.2, 0.22], 'freq', [0.19, 0.2, 0.21]),
    /: the seeds overlap uniform; within uniform/,
  );
});

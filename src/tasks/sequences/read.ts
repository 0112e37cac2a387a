// Sequence files for the sequences task (DNA, proteins, SMILES, a user's own symbols): FASTA
// (records opened by `>` lines, a record's sequence the following lines joined, whitespace
// dropped, soft-masked lowercase read as the uppercase residue it marks) or one sequence per line,
// taken as written (SMILES and a user's symbols are case-sensitive); blank lines are skipped. Each sequence keeps the 1-based line
// it starts on, so that a later check (an alphabet, a length) names where the problem is.
import { readFileSync, statSync } from 'node:fs';

/** The sequences of a file, each with the line it starts on. */
export interface SequenceFile {
  path: string;
  format: 'fasta' | 'lines';
  sequences: string[];
  lines: number[]; // [n] 1-based
  softMasked: number; // FASTA: lowercase symbols read as uppercase
}

/** The sequences of `text` (`path` names it in errors): FASTA when its first record line is `>`. */
export function parseSequences(text: string, path: string): SequenceFile {
  const all = text.replace(/^\uFEFF/, '').split('\n');
  const first = all.findIndex((l) => l.trim() !== '');
  if (first < 0) throw new Error(`${path}: no sequences (an empty file)`);
  const fasta = all[first]!.trimStart().startsWith('>');
  const sequences: string[] = [];
  const lines: number[] = [];
  let open = false; // a FASTA record whose sequence lines are still coming
  all.forEach((raw, k) => {
    const line = raw.replace(/\r$/, '');
    if (fasta && line.startsWith('>')) {
      if (open && sequences.at(-1) === '')
        throw new Error(`${path} line ${lines.at(-1)}: a FASTA record without a sequence`);
      sequences.push('');
      lines.push(k + 1);
      open = true;
      return;
    }
    const s = line.replace(/\s+/g, '');
    if (s === '') return;
    if (fasta) sequences[sequences.length - 1] += s;
    else {
      sequences.push(s);
      lines.push(k + 1);
    }
  });
  if (fasta && sequences.at(-1) === '')
    throw new Error(`${path} line ${lines.at(-1)}: a FASTA record without a sequence`);
  if (!fasta) return { path, format: 'lines', sequences, lines, softMasked: 0 };
  // soft-masking (repeats in lowercase) marks a region, not other residues
  let softMasked = 0;
  const upper = sequences.map((s) => {
    const u = s.toUpperCase();
    if (u !== s) for (let i = 0; i < s.length; i++) if (s[i] !== u[i]) softMasked++;
    return u;
  });
  return { path, format: 'fasta', sequences: upper, lines, softMasked };
}

/** Reads a sequence file (see parseSequences); a folder or a missing file in one line. */
export function readSequences(path: string): SequenceFile {
  let text: string;
  try {
    if (statSync(path).isDirectory()) throw new Error(`${path}: a folder, not a sequence file`);
    text = readFileSync(path, 'utf8');
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    throw err.code === 'ENOENT' ? new Error(`${path}: no such file`) : err;
  }
  return parseSequences(text, path);
}

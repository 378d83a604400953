/**
 * The words of Tout errors, written once for the runtime's check (tout-checks.ts, outputs.ts) and
 * the editor's static one (extension/server/tout-checks.ts), so the two never word one problem two
 * ways. First lines are TensorFlow's own; the fixes are ours. No TensorFlow.js here.
 */
import { displayName, isInteger, type TfDType } from '../dtypes.js';

/*
 * A line that names the callback takes it as `callback`; left out (undefined), the same words
 * make the verdict's short form, for a view that names the callback already (a debugger's stop).
 */

/** How TensorFlow names an output in its messages: "0-th value returned by normalize" (short: "0-th value"). */
export function outputLead(index: number, callback: string | undefined): string {
  return callback === undefined ? `${index}-th value` : `${index}-th value returned by ${callback}`;
}

/** TensorFlow's first line when the callback returns more or fewer values than Tout declares. */
export function countMismatchLine(callback: string | undefined, count: number, expected: number): string {
  return `${subject(callback)}returns ${count} values, but expects to see ${expected} values.`;
}

/** A return value that throws when read (a revoked Proxy). */
export function unreadableLine(callback: string | undefined, thrown: string): string {
  return `${subject(callback)}returned a value that cannot be read: reading it threw ${thrown}.`;
}

function subject(callback: string | undefined): string {
  return callback === undefined ? '' : `${callback} `;
}

/** A returned value that is no tensor-like value at all (undefined, a Promise, …). */
export function notATensorMessage(lead: string, problem: string): string {
  return `${lead} is not a tensor: ${problem}`;
}

/** numpy_function / py_func's first line for data of another dtype: "… is double, but expects float". */
export function dtypeMismatchLine(lead: string, actual: TfDType, expected: TfDType): string {
  return `${lead} is ${displayName(actual)}, but expects ${displayName(expected)}`;
}

/*
 * py_function's conversion errors are Python exceptions raised in the callback's EagerPyFunc:
 * TensorFlow's first line names the exception's class (`ValueError: …`), and so do these.
 */

/** py_function's first line for a value convert_to_tensor refuses (`what`: its repr, or "a Float64Array"). */
export function notConvertibleLine(what: string, expected: TfDType): string {
  return `TypeError: Cannot convert ${what} to EagerTensor of dtype ${displayName(expected)}`;
}

/** py_function's first line for a returned tensor of another dtype than Tout's (`repr`: Python's repr of it). */
export function tensorConversionLine(expected: TfDType, actual: string, repr: string): string {
  return `ValueError: Tensor conversion requested dtype ${expected} for Tensor with dtype ${actual}: ${repr}`;
}

/** py_function's first line for a returned variable (`repr`: Python's repr of it). */
export function variableReturnedLine(repr: string): string {
  return (
    'RuntimeError: Attempting to return a variable from an eagerly executed py_func. ' +
    'Only numeric data structures like Tensors or NumPy arrays should be returned; to return the value of a variable, ' +
    `make sure to obtain the Tensor backing it by calling \`.read_value()\` on the variable in question: ${repr}`
  );
}

export interface DtypeFixFacts {
  /** What was returned: "Float64Array", "NdArray", "number", … */
  readonly describe: string;
  readonly actual: TfDType;
  readonly expected: TfDType;
  /** JS numbers with fractions for an integer Tout (the runtime knows; the editor cannot tell). */
  readonly fractionalNumbers?: boolean;
}

/** What to do about a dtype mismatch: numpy's float64 mistake, fractions for an integer Tout, else return Tout's dtype. */
export function dtypeFix({ describe, actual, expected, fractionalNumbers }: DtypeFixFacts): string {
  if (actual === 'float64' && expected === 'float32') {
    const ndArray = describe === 'NdArray';
    const how = ndArray ? "new NdArray(Float32Array.from(a.data), a.shape, 'float32')" : 'Float32Array.from(values)';
    const what = ndArray ? 'float64 data' : 'a Float64Array';
    return `This is numpy's float64 mistake in JavaScript: ${what} is double precision. Return float32 data (${how}) or declare Tout 'float64'.`;
  }
  if (fractionalNumbers && isInteger(expected)) return 'The values are not all integers; round them (Math.round) or declare a float dtype in Tout.';
  return `Return ${displayName(expected)} data or change Tout to '${actual}'.`;
}

/** "a"/"an" for a word in a message. */
export function article(word: string): string {
  return /^[aeiou]/i.test(word) ? 'an' : 'a';
}

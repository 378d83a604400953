/**
 * Image-shaped tensors in Chromium: [H, W, 3] and [1, H, W, 4] open as an RGB(A) image on a canvas
 * (pixels read back with getImageData), a channel toggle shows one channel as grayscale, the grid
 * is a toggle (or a click on a pixel) away and the choice survives a reload; [H, W] stays a grid.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Page } from 'playwright-core';
import { imageLayout, pixelScale } from '../../media/src/image.js';
import { SESSION } from './fixtures.js';
import { assertClean, gridCells, screenshot, sendInvocation, startHarness, waitForTensor, type Harness } from './harness.js';
import { IMAGE_H, IMAGE_W, imageEvent, imageFixtures, pixel } from './value-fixtures.js';

let h: Harness;

before(async () => {
  h = await startHarness();
});

after(async () => {
  await h?.close();
});

/** RGBA of the image canvas at tensor pixel (y, x): the canvas has one pixel per tensor pixel. */
async function canvasPixel(page: Page, y: number, x: number): Promise<number[]> {
  return page.evaluate(
    ([py, px]) => {
      const canvas = document.querySelector<HTMLCanvasElement>('canvas.image-canvas')!;
      return Array.from(canvas.getContext('2d')!.getImageData(px!, py!, 1, 1).data);
    },
    [y, x],
  );
}

async function pressed(page: Page, group: string): Promise<string[]> {
  return page.$$eval(`${group} button[aria-pressed="true"]`, (bs) => bs.map((b) => b.textContent ?? ''));
}

async function select(page: Page, side: 'inputs' | 'outputs', index: number, renders: number): Promise<number> {
  await page.click(`tr.tensor-row[data-side="${side}"][data-index="${index}"]`);
  await page.waitForFunction(([s, i]) => document.querySelector(`tr.tensor-row.selected[data-side="${s}"][data-index="${i}"]`) !== null, [side, String(index)]);
  return waitForTensor(page, renders);
}

test('an [H, W, 3] uint8-range tensor opens as an RGB image: pixels as they are, a channel toggle, the grid a toggle away', async () => {
  const page = await h.open(imageFixtures);
  await sendInvocation(page, SESSION, imageEvent);
  let renders = await waitForTensor(page);
  renders = await select(page, 'inputs', 0, renders);
  assert.equal(await page.getAttribute('.tensor-view', 'data-display'), 'image');
  assert.equal(await page.locator('canvas.image-canvas').count(), 1);
  assert.equal(await page.locator('table.grid').count(), 0, 'the image, not the grid, by default');
  const size = await page.$eval('canvas.image-canvas', (c) => [(c as HTMLCanvasElement).width, (c as HTMLCanvasElement).height]);
  assert.deepEqual(size, [IMAGE_W, IMAGE_H], 'one canvas pixel per tensor pixel');
  for (const [y, x] of [
    [0, 0],
    [3, 7],
    [5, 2],
    [2, 5],
  ] as const)
    assert.deepEqual(await canvasPixel(page, y, x), [...pixel(y, x), 255], `pixel [${y}, ${x}]`);
  assert.match((await page.textContent('figure.image figcaption')) ?? '', /RGB · int32 values 0–255, shown as they are/);
  assert.deepEqual(await pressed(page, '.display-toggle'), ['Image']);
  assert.deepEqual(await pressed(page, '.channel-toggle'), ['RGB']);
  assert.equal(await page.locator('canvas.histogram-canvas').count(), 1);
  await screenshot(page, 'image-rgb.png');

  // One channel, as grayscale.
  await page.click('.channel-toggle button:text-is("G")');
  renders = await waitForTensor(page, renders);
  assert.deepEqual(await pressed(page, '.channel-toggle'), ['G']);
  const g = pixel(3, 7)[1];
  assert.deepEqual(await canvasPixel(page, 3, 7), [g, g, g, 255], 'the G channel in gray');
  assert.match((await page.textContent('.charts h3')) ?? '', /Channel G/);
  assert.match((await page.textContent('figure.image figcaption')) ?? '', /^channel G/);
  await screenshot(page, 'image-channel-g.png');

  // The grid: rows and columns of the channel shown.
  await page.click('.display-toggle button:text-is("Grid")');
  renders = await waitForTensor(page, renders);
  assert.equal(await page.getAttribute('.tensor-view', 'data-display'), 'grid');
  assert.equal(await page.locator('canvas.image-canvas').count(), 0);
  let cells = await gridCells(page);
  assert.equal(cells.length, IMAGE_H);
  assert.deepEqual(
    cells[3],
    Array.from({ length: IMAGE_W }, (_, x) => String(pixel(3, x)[1])),
    'row 3 of channel G',
  );
  assert.match((await page.textContent('.slice-desc')) ?? '', /\[:, :, 1\]/);
  assert.deepEqual(await pressed(page, '.display-toggle'), ['Grid']);
  await screenshot(page, 'image-as-grid.png');

  // The choice is kept: a reloaded (hidden and re-shown) panel shows the grid again.
  await page.reload();
  await page.waitForFunction(() => (window as unknown as { __posted: { type: string }[] }).__posted.some((m) => m.type === 'ready'));
  renders = await waitForTensor(page);
  assert.equal(await page.getAttribute('.tensor-view', 'data-display'), 'grid');

  // Back to the image, then a click on a pixel opens the grid there.
  await page.click('.display-toggle button:text-is("Image")');
  renders = await waitForTensor(page, renders);
  await page.click('.channel-toggle button:text-is("B")');
  renders = await waitForTensor(page, renders);
  const box = (await page.locator('canvas.image-canvas').boundingBox())!;
  await page.mouse.click(box.x + ((2 + 0.5) / IMAGE_W) * box.width, box.y + ((4 + 0.5) / IMAGE_H) * box.height);
  renders = await waitForTensor(page, renders);
  assert.equal(await page.getAttribute('.tensor-view', 'data-display'), 'grid');
  assert.match((await page.textContent('.slice-desc')) ?? '', /\[:, :, 2\]/, 'the channel shown');
  cells = await gridCells(page);
  assert.equal(cells[4]![2], String(pixel(4, 2)[2]));
  await assertClean(h, page);
});

test('a [1, H, W, 4] float tensor in 0–1 opens as an RGBA image over a checkerboard', async () => {
  const page = await h.open(imageFixtures);
  await sendInvocation(page, SESSION, imageEvent);
  await waitForTensor(page);
  // The output is selected first.
  assert.match((await page.textContent('.tensor-sig')) ?? '', /Tensor float32 \[1, 6, 8, 4\]/);
  assert.equal(await page.getAttribute('.tensor-view', 'data-display'), 'image');
  assert.deepEqual(await canvasPixel(page, 2, 5), [...pixel(2, 5), 255], 'values in 0–1 drawn as 0–255');
  assert.equal((await canvasPixel(page, 0, 0))[3], 0, 'alpha 0: transparent');
  assert.match((await page.textContent('figure.image figcaption')) ?? '', /RGBA · float32 values in 0–1, shown as 0–255/);
  assert.deepEqual(await pressed(page, '.channel-toggle'), ['RGBA']);
  assert.equal(await page.locator('.channel-toggle button').count(), 5, 'RGBA, R, G, B, A');
  assert.equal(await page.locator('input[aria-label="image in the batch"]').count(), 1);
  assert.match((await page.getAttribute('canvas.image-canvas', 'class')) ?? '', /transparent/);
  await screenshot(page, 'image-rgba.png');
  await page.click('.channel-toggle button:text-is("A")');
  await page.waitForFunction(() => document.querySelector('.channel-toggle button[aria-pressed="true"]')?.textContent === 'A');
  await waitForTensor(page, 1);
  assert.deepEqual(await canvasPixel(page, 0, 7), [255, 255, 255, 255], 'alpha 1 in white');
  assert.deepEqual(await canvasPixel(page, 0, 0), [0, 0, 0, 255], 'alpha 0 in black');
  await assertClean(h, page);
});

test('an [H, W] tensor shows rows and columns (the grid and heatmap) by default, with no image toggle', async () => {
  const page = await h.open(imageFixtures);
  await sendInvocation(page, SESSION, imageEvent);
  let renders = await waitForTensor(page);
  renders = await select(page, 'inputs', 1, renders);
  assert.equal(await page.getAttribute('.tensor-view', 'data-display'), 'grid');
  assert.equal(await page.locator('canvas.image-canvas').count(), 0);
  assert.equal(await page.locator('.display-toggle').count(), 0);
  assert.equal(await page.locator('canvas.heatmap-canvas').count(), 1);
  const cells = await gridCells(page);
  assert.equal(cells.length, IMAGE_H);
  assert.equal(cells[0]!.length, IMAGE_W);
  assert.deepEqual(cells[0]!.slice(0, 4), ['1', '0', '0', '1']);
  await screenshot(page, 'grid-hw.png');
  await assertClean(h, page);
});

test('which tensors are images, and how their values become pixels', () => {
  assert.deepEqual(imageLayout([6, 8, 3], 'int32'), { heightAxis: 0, widthAxis: 1, channelAxis: 2, batches: 1, height: 6, width: 8, channels: 3, size: 144 });
  assert.deepEqual(imageLayout([2, 6, 8, 4], 'float32'), {
    batchAxis: 0,
    heightAxis: 1,
    widthAxis: 2,
    channelAxis: 3,
    batches: 2,
    height: 6,
    width: 8,
    channels: 4,
    size: 192,
  });
  for (const [shape, dtype] of [
    [[6, 8], 'float32'],
    [[6, 8, 2], 'float32'],
    [[6, 8, 3], 'string'],
    [[2, 3, 4], 'int32'],
    [[100, 3, 3], 'float32'],
    [[0, 8, 3], 'uint8'],
  ] as const) {
    assert.equal(imageLayout(shape, dtype), undefined, `[${shape.join(', ')}] ${dtype} is no image`);
  }
  const scale = (dtype: string, values: number[]) => {
    const s = pixelScale(dtype, Float64Array.from(values));
    return values.map((v) => Math.round(Math.min(255, Math.max(0, s.offset + (v - s.lo) * s.k))));
  };
  assert.deepEqual(scale('int32', [0, 7, 255]), [0, 7, 255], 'integers in 0–255 as they are');
  assert.deepEqual(scale('float32', [0, 0.5, 1]), [0, 128, 255], 'floats in 0–1 times 255');
  assert.deepEqual(scale('int32', [-10, 0, 290]), [0, 9, 255], 'others from min … max');
  assert.deepEqual(scale('float32', [0, 2, 4]), [0, 128, 255]);
  assert.deepEqual(scale('float32', [3, 3]), [128, 128], 'a constant image is mid gray');
});

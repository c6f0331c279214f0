// Drives the built documentation site in headless Chromium (puppeteer-core) and writes what it
// saw to a JSON file for test_docs_browser.py to judge: node drive_site.cjs PLAN.json.
// Every wait is on a condition in the page; each page gets a screenshot.
'use strict';

const fs = require('node:fs');
const path = require('node:path');

const plan = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
const puppeteer = require(plan.puppeteer);
const seen = {};

async function main() {
  const browser = await puppeteer.launch({
    executablePath: plan.chromium,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--no-first-run'],
    defaultViewport: { width: 1400, height: 1000 },
  });
  try {
    const page = await browser.newPage();
    page.setDefaultTimeout(30_000);
    const shot = (name) => page.screenshot({ path: path.join(plan.screenshots, `${name}.png`), fullPage: false });

    // The home page, with the picture loaded.
    await page.goto(`${plan.url}/`, { waitUntil: 'networkidle0' });
    seen.homeTitle = await page.title();
    seen.homeHeading = await page.$eval('article h1', (h) => h.textContent.replace('¶', '').trim());
    seen.homePicture = await page.$eval('article img', (img) => ({ src: img.getAttribute('src'), width: img.naturalWidth }));
    await shot('home');

    // Search: the site's own search finds FS015.
    await page.click('label[for="__search"]').catch(() => undefined);
    await page.waitForSelector('input.md-search__input', { visible: true });
    await page.type('input.md-search__input', 'FS015');
    await page.waitForFunction(
      () => [...document.querySelectorAll('.md-search-result__item')].some((i) => i.textContent.includes('FS015')),
    );
    seen.searchResults = await page.$$eval('.md-search-result__item', (items) =>
      items.slice(0, 5).map((i) => i.textContent.replace(/\s+/g, ' ').trim()),
    );
    await shot('search');

    // The FS015 page: both examples and what lint prints.
    await page.goto(`${plan.url}/rules/FS015/`, { waitUntil: 'networkidle0' });
    seen.fs015Heading = await page.$eval('article h1', (h) => h.textContent.replace('¶', '').trim());
    seen.fs015Code = await page.$$eval('article pre', (blocks) => blocks.map((b) => b.textContent));
    await shot('fs015');

    // The editors page, at its VS Code section.
    await page.goto(`${plan.url}/editors/`, { waitUntil: 'networkidle0' });
    seen.editorHeadings = await page.$$eval('article h2, article h3', (hs) => hs.map((h) => h.textContent.replace('¶', '').trim()));
    const vscode = await page.$('article h3[id^="vs-code"]');
    if (vscode) {
      await vscode.scrollIntoView();
    }
    await shot('editors-vscode');

    // The page about Python tests, with its negative tests.
    await page.goto(`${plan.url}/python/`, { waitUntil: 'networkidle0' });
    seen.pythonHeadings = await page.$$eval('article h2', (hs) => hs.map((h) => h.textContent.replace('¶', '').trim()));
    await shot('python');
  } finally {
    fs.writeFileSync(plan.out, JSON.stringify(seen, null, 2));
    await browser.close();
  }
}

main().catch((error) => {
  seen.error = String(error && error.stack ? error.stack : error);
  fs.writeFileSync(plan.out, JSON.stringify(seen, null, 2));
  process.exit(1);
});

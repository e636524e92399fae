// The demo page (issue "Demo page for QA") replaces this script.
console.log('The demo is not built yet. Run `npm run mock` for the mock service or `npm test`.');

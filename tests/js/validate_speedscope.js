// SPDX-License-Identifier: MIT
// Validates files against the schema the speedscope npm package ships
// (file-format-schema.json) with ajv; prints "ok FILE" or the errors, and
// exits 1 when any file is invalid.
//   node validate_speedscope.js FILE...
'use strict';
const fs = require('fs');
const path = require('path');
const Ajv = require('ajv');

const schema = JSON.parse(fs.readFileSync(path.join(__dirname,
	'node_modules/speedscope/dist/release/file-format-schema.json'), 'utf8'));
const validate = new Ajv({ allErrors: true, strict: false }).compile(schema);
let bad = 0;
for (const f of process.argv.slice(2)) {
	let doc;
	try {
		doc = JSON.parse(fs.readFileSync(f, 'utf8'));
	} catch (e) {
		console.log(`invalid ${f}: not JSON: ${e.message}`);
		bad++;
		continue;
	}
	if (validate(doc)) {
		console.log(`ok ${f}`);
	} else {
		console.log(`invalid ${f}: ${JSON.stringify(validate.errors.slice(0, 3))}`);
		bad++;
	}
}
process.exit(bad ? 1 : 0);

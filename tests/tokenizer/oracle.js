// The reference for bench's tokenizer test: Hugging Face's own tokenizers (the native binding
// of the Rust crate, npm `tokenizers`) encodes and decodes every text of a corpus.
//   node oracle.js TOKENIZER_JSON CORPUS_JSON OUT_JSON
// CORPUS_JSON is an array of strings; OUT_JSON gets one {"ids": [...], "decoded": "..."} each.
// Ids are those of the content alone (no BOS/EOS: addSpecialTokens false), as bench encodes.
"use strict";
const fs = require("fs");
const path = require("path");
const { Tokenizer } = require(path.join(__dirname, "npm", "node_modules", "tokenizers"));

async function main() {
  const [tokenizerPath, corpusPath, outPath] = process.argv.slice(2);
  const tokenizer = Tokenizer.fromFile(tokenizerPath);
  const corpus = JSON.parse(fs.readFileSync(corpusPath, "utf8"));
  const results = [];
  for (const text of corpus) {
    const encoding = await tokenizer.encode(text, null, { addSpecialTokens: false });
    const ids = Array.from(encoding.getIds());
    const decoded = await tokenizer.decode(ids, false);
    results.push({ ids, decoded });
  }
  fs.writeFileSync(outPath, JSON.stringify(results));
}

main().catch((error) => {
  console.error(`oracle.js: ${error.stack || error}`);
  process.exit(1);
});

// Offline check of deploy/kubernetes/: every manifest parses (yaml) and every object validates
// against the Kubernetes OpenAPI schema (kubernetes-models' classes: types, required fields,
// enums); then what bench's recipe needs of them, which no schema says: an Indexed Job whose
// completions, parallelism and --shards agree, each shard's own output file by
// JOB_COMPLETION_INDEX on a mounted volume of a claim defined beside it, no retries, and a
// merge Job reading the same volume. The schema allows unknown fields (the API server only
// rejects them under strict field validation), so the recipe's own fields are read by name
// below: a misspelt one is missing there.
//   node check_kubernetes.mjs MANIFEST_DIR NPM_DIR
// Exit 0: valid; 1: a problem, one line each naming the file; 77: NPM_DIR/node_modules missing
// (scripts/setup --test installs it), said on stderr.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const [manifestDir, npmDir] = process.argv.slice(2);
const modules = join(npmDir ?? "", "node_modules");
if (!existsSync(join(modules, "kubernetes-models")) || !existsSync(join(modules, "yaml"))) {
  console.error(`skipped: ${modules} has no kubernetes-models or yaml (scripts/setup --test)`);
  process.exit(77);
}
const load = (file) => import(pathToFileURL(join(modules, file)).href);
const YAML = (await load("yaml/dist/index.js")).default;
const { Job } = await load("kubernetes-models/batch/v1/Job.js");
const { PersistentVolumeClaim } = await load("kubernetes-models/v1/PersistentVolumeClaim.js");
const kinds = { "batch/v1 Job": Job, "v1 PersistentVolumeClaim": PersistentVolumeClaim };

const problems = [];
const objects = [];  // {file, object}
for (const file of readdirSync(manifestDir).filter((f) => /\.ya?ml$/.test(f)).sort()) {
  const documents = YAML.parseAllDocuments(readFileSync(join(manifestDir, file), "utf8"));
  documents.forEach((document, i) => {
    const where = `${file}: document ${i + 1}`;
    if (document.errors.length > 0) {
      problems.push(`${where}: ${document.errors[0].message.split("\n")[0]}`);
      return;
    }
    const object = document.toJS();
    const Model = kinds[`${object?.apiVersion} ${object?.kind}`];
    if (!Model) {
      problems.push(`${where}: ${object?.apiVersion} ${object?.kind} is not a kind this check knows`);
      return;
    }
    try {
      new Model(object).validate();
    } catch (error) {
      problems.push(`${where} (${object.kind} ${object.metadata?.name}): ${error.message}`);
      return;
    }
    objects.push({ file, object });
  });
}

const claims = new Set(objects.filter(({ object }) => object.kind === "PersistentVolumeClaim")
  .map(({ object }) => object.metadata.name));
const jobs = objects.filter(({ object }) => object.kind === "Job");
const flag = (args, name) => args.find((a) => a.startsWith(`${name}=`))?.slice(name.length + 1);

// Every volume a claim defined here, every mount a volume of the pod; the mount paths.
function mountedPaths(file, job, container) {
  const spec = job.spec.template.spec;
  const volumes = new Map((spec.volumes ?? []).map((v) => [v.name, v]));
  const paths = [];
  for (const mount of container.volumeMounts ?? []) {
    const volume = volumes.get(mount.name);
    const claim = volume?.persistentVolumeClaim?.claimName;
    if (!claims.has(claim)) {
      problems.push(`${file}: Job ${job.metadata.name} mounts ${mount.name}, not a claim defined here`);
    } else {
      paths.push(mount.mountPath);
    }
  }
  return paths;
}

function checkShards(file, job) {
  const spec = job.spec;
  const name = `${file}: Job ${job.metadata.name}`;
  const container = spec.template.spec.containers[0];
  const args = [...(container.command ?? []), ...(container.args ?? [])];
  const shards = Number(flag(args, "--shards"));
  if (spec.completionMode !== "Indexed") problems.push(`${name}: completionMode is not Indexed`);
  if (!(shards >= 2)) problems.push(`${name}: no --shards=N (N >= 2) in the container's args`);
  if (spec.completions !== shards) {
    problems.push(`${name}: completions ${spec.completions} != --shards ${shards}`);
  }
  // --start-at: every shard must run at once.
  if (spec.parallelism !== spec.completions) {
    problems.push(`${name}: parallelism ${spec.parallelism} != completions ${spec.completions}`);
  }
  if (spec.backoffLimit !== 0 || spec.template.spec.restartPolicy !== "Never") {
    problems.push(`${name}: a shard must not be retried (backoffLimit 0, restartPolicy Never)`);
  }
  for (const needed of ["--seed", "--start-at", "--base-url"]) {
    if (flag(args, needed) === undefined) problems.push(`${name}: no ${needed}= in the args`);
  }
  const output = flag(args, "--output-file") ?? "";
  if (!output.includes("$(JOB_COMPLETION_INDEX)")) {
    problems.push(`${name}: --output-file does not name the shard by $(JOB_COMPLETION_INDEX)`);
  }
  if (!mountedPaths(file, job, container).some((path) => output.startsWith(`${path}/`))) {
    problems.push(`${name}: --output-file ${output} is not on a mounted claim`);
  }
  return output.slice(0, output.lastIndexOf("/"));
}

const shardJobs = jobs.filter(({ object }) => object.spec.completionMode === "Indexed" ||
  JSON.stringify(object.spec.template.spec.containers[0].args ?? []).includes("--shards"));
const mergeJobs = jobs.filter(({ object }) =>
  JSON.stringify(object.spec.template.spec.containers[0].args ?? []).includes("bench merge"));
if (shardJobs.length !== 1) problems.push(`${manifestDir}: ${shardJobs.length} shard Jobs, not 1`);
if (mergeJobs.length !== 1) problems.push(`${manifestDir}: ${mergeJobs.length} merge Jobs, not 1`);
const shardDir = shardJobs.map(({ file, object }) => checkShards(file, object))[0];
for (const { file, object } of shardDir === undefined ? [] : mergeJobs) {
  const container = object.spec.template.spec.containers[0];
  const script = (container.args ?? []).join(" ");
  if (!mountedPaths(file, object, container).includes(shardDir) ||
      !script.includes(`${shardDir}/shard-*.json`)) {
    problems.push(`${file}: Job ${object.metadata.name} does not merge ${shardDir}/shard-*.json`);
  }
}

for (const problem of problems) console.error(problem);
if (problems.length > 0) process.exit(1);
console.log(`${objects.length} objects valid in ${manifestDir}`);

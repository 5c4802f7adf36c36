module.exports = {
  displayName: 'jobs-http',
  preset: '../../../jest.preset.js',
  coverageDirectory: '../../../coverage/libs/jobs/http',
};

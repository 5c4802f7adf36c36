module.exports = {
  displayName: 'jobs',
  preset: '../../jest.preset.js',
  coverageDirectory: '../../coverage/apps/jobs',
};

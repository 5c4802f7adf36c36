module.exports = {
  displayName: 'service-jobs',
  preset: '../../jest.preset.js',
  coverageDirectory: '../../coverage/libs/service-jobs',
};
